/** What each role may use, in the words staff read (the table itself, with each permission's words, is shared/src/contracts/staff.ts). */
import { PERMISSIONS, STAFF_ROLE_LABELS, type Permission, type StaffRole } from '@nh/shared/contracts/staff';

/** The message shown instead of a screen or an action the role cannot use (the screen then calls no API). */
export const roleMessage = (role: StaffRole, permission: Permission): string =>
  `Your role (${STAFF_ROLE_LABELS[role]}) cannot ${PERMISSIONS[permission].words}. Ask an owner if you need it.`;
