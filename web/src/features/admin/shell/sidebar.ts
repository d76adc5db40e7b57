/** The sidebar's links: the screens of the screen list marked `inSidebar`, in its order, that a role can use. */
import { can, type StaffRole } from '@nh/shared/contracts/staff';
import type { AdminScreen } from './screen';

export const linksFor = (screens: readonly AdminScreen[], role: StaffRole) => screens.filter((screen) => screen.inSidebar && can(role, screen.permission));
