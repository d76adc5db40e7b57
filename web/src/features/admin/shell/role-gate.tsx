import { can, type Permission } from '@nh/shared/contracts/staff';
import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { roleMessage } from '../permissions';
import { useSignedInStaff } from '../staff-session';

/** The role's message in place of what it cannot use; the children (and their API calls) only for a role that can. */
export function RoleGate({ permission, children }: { permission: Permission; children: ReactNode }) {
  const staff = useSignedInStaff();
  if (can(staff.role, permission)) return children;
  return <RoleMessage permission={permission} />;
}

export function RoleMessage({ permission }: { permission: Permission }) {
  const staff = useSignedInStaff();
  return (
    <Alert data-testid="role-message">
      <ShieldAlert aria-hidden="true" />
      <AlertDescription>{roleMessage(staff.role, permission)}</AlertDescription>
    </Alert>
  );
}

/** Whether the signed-in role has a permission (to leave out a button or panel). */
export function useCan(permission: Permission): boolean {
  return can(useSignedInStaff().role, permission);
}
