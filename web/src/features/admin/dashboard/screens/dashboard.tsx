import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../components/admin-frame';
import { RoleGate } from '../components/role-gate';
import { DashboardView } from '../dashboard/dashboard-view';

/** /admin: every staff member's first screen (sales, plans, NetSuite, queues). */
export default function DashboardPage() {
  usePageMeta({ title: 'Dashboard' });
  return (
    <AdminPage title="Dashboard">
      <RoleGate permission="dashboard.view">
        <DashboardView />
      </RoleGate>
    </AdminPage>
  );
}
