import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { DashboardView } from '../components/dashboard-view';

/** /admin: every staff member's first screen (sales, plans, NetSuite, queues). */
export default function DashboardPage() {
  usePageMeta({ title: 'Dashboard' });
  return (
    <AdminPage title="Dashboard">
      <DashboardView />
    </AdminPage>
  );
}
