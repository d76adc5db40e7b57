import { can, type Permission } from '@nh/shared/contracts/staff';
import { ShieldAlert } from 'lucide-react';
import { createContext, useContext } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { roleMessage } from './permissions';
import { useSignedInStaff } from './staff-session';

/** The permission of the screen shown, from the screen list (the admin layout provides it). */
export const ScreenPermission = createContext<Permission | null>(null);

export function useScreenPermission(): Permission {
  const permission = useContext(ScreenPermission);
  if (!permission) throw new Error('An admin screen is drawn at an address missing from admin/screens.tsx');
  return permission;
}

/** The role's message in place of a screen or an action it cannot use. */
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
