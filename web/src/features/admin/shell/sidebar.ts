/** The sidebar's links: the screens of the screen list marked `inSidebar`, in its order. */
import { can, type StaffRole } from '@nh/shared/contracts/staff';
import { ADMIN_SCREENS } from '../screens';

export const ADMIN_LINKS = ADMIN_SCREENS.filter((screen) => screen.inSidebar);

/** The links of the screens a role can use. */
export const linksFor = (role: StaffRole) => ADMIN_LINKS.filter((link) => can(role, link.permission));
