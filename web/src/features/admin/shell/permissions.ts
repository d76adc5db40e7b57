/** What each role may use, in the words staff read (the table itself is shared/src/contracts/staff.ts). */
import { STAFF_ROLE_LABELS, type Permission, type StaffRole } from '@nh/shared/contracts/staff';

/** "Your role (Support) cannot {words}." */
export const PERMISSION_WORDS: Record<Permission, string> = {
  'staff.manage': 'manage staff accounts',
  'audit.view': 'read the audit trail',
  'promos.manage': 'manage promo codes',
  'catalog.manage': 'manage products',
  'reviews.moderate': 'moderate reviews',
  'orders.view': 'view orders',
  'orders.fulfil': 'change the status, carrier or tracking of an order',
  'orders.refund': 'refund orders',
  'orders.resendEmail': 'resend order emails',
  'subscriptions.view': 'view subscriptions',
  'subscriptions.act': 'change subscriptions',
  'exports.run': 'export orders',
  'sync.manage': 'manage the NetSuite sync',
  'queues.view': 'view the queues',
  'queues.manage': 'change the queues (retry, remove, promote, pause)',
  'dashboard.view': 'view the dashboard',
};

/** The message shown instead of a screen or an action the role cannot use (the screen then calls no API). */
export const roleMessage = (role: StaffRole, permission: Permission): string =>
  `Your role (${STAFF_ROLE_LABELS[role]}) cannot ${PERMISSION_WORDS[permission]}. Ask an owner if you need it.`;
