import { useQuery } from '@tanstack/react-query';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { staffQueries } from '../api';
import { InviteForm } from '../components/invite-form';
import { OpenInvitations } from '../components/open-invitations';
import { StaffTable } from '../components/staff-table';

function StaffScreen() {
  const list = useQuery(staffQueries.list);
  return (
    <div className="grid grid-cols-1 gap-6">
      <InviteForm />
      {list.isPending ? (
        <p className="text-stone-600">Loading staff...</p>
      ) : list.isError ? (
        <p className="text-red-700">{serverMessageOf(list.error) ?? 'Failed to load staff.'}</p>
      ) : (
        <>
          <StaffTable staff={list.data.staff} />
          <OpenInvitations invitations={list.data.invitations} />
        </>
      )}
    </div>
  );
}

/** /admin/staff (owners): staff accounts with their roles, invitations (sent and revoked), disabling and enabling. */
export default function StaffManagerPage() {
  usePageMeta({ title: 'Staff' });
  return (
    <AdminPage title="Staff">
      <StaffScreen />
    </AdminPage>
  );
}
