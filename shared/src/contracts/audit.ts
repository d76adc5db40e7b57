/**
 * The audit trail: who changed what, when, from where. One row per staff action that changed
 * something, written in the transaction of the change (docs/decisions/staff-accounts.md).
 */
import { z } from 'zod';
import { STAFF_ROLES } from './staff';
import { textField } from './fields';

/** Every audited action, with the words staff read for it. */
export const AUDIT_ACTION_LABELS = {
  'staff.signed_in': 'Signed in',
  'staff.sign_in_failed': 'Failed sign-in',
  'staff.signed_out': 'Signed out',
  'staff.invited': 'Invited staff',
  'staff.invitation_accepted': 'Accepted invitation',
  'staff.invitation_revoked': 'Revoked invitation',
  'staff.role_changed': 'Changed role',
  'staff.disabled': 'Disabled account',
  'staff.enabled': 'Enabled account',
  'staff.password_reset': 'Reset password',
  'promo.created': 'Created promo code',
  'promo.toggled': 'Switched promo code on or off',
  'product.created': 'Created product',
  'product.updated': 'Updated product',
  'product.deleted': 'Deleted product',
  'product.inventory_adjusted': 'Adjusted inventory',
  'review.hidden': 'Hid review',
  'review.shown': 'Showed review',
  'review.deleted': 'Deleted review',
  'order.updated': 'Updated order',
  'order.refunded': 'Refunded order',
  'customer.credit_granted': 'Gave store credit',
  'order.email_resent': 'Sent an email again',
  'order.address_changed': 'Changed order shipping address',
  'subscription.paused': 'Paused subscription',
  'subscription.resumed': 'Resumed subscription',
  'subscription.skipped': 'Skipped subscription delivery',
  'subscription.rescheduled': 'Changed subscription date',
  'subscription.frequency_changed': 'Changed subscription delivery frequency',
  'subscription.cancelled': 'Cancelled subscription',
  'subscription.items_changed': 'Changed subscription items',
  'subscription.address_changed': 'Changed subscription delivery address',
  'subscription.card_link_sent': 'Sent the customer a link to update their card',
  'subscription.bulk_swapped': 'Swapped a product on a subscription (bulk swap)',
  'subscription.bulk_swap_started': 'Started a bulk swap of subscriptions',
  'subscription.shipped_now': 'Shipped subscription delivery now',
  'subscription.one_time_item_added': 'Added one-time item to subscription',
  'subscription.one_time_item_removed': 'Removed one-time item from subscription',
  'sync.replayed': 'Replayed NetSuite sync',
  'sync.replayed_failed': 'Replayed failed NetSuite syncs',
  'sync.store_credit_replayed': 'Sent a store-credit movement to NetSuite again',
  'export.started': 'Started export',
  'export.downloaded': 'Downloaded export',
  'queue.changed': 'Changed a queue (queue dashboard)',
  'customer.note_added': 'Wrote a note on a customer',
  'order.note_added': 'Wrote a note on an order',
  'customer.tags_changed': 'Changed a customer’s tags',
  'customer.exported': 'Exported a customer’s data (privacy request)',
  'customer.anonymised': 'Anonymised a customer (privacy request)',
  'customer.sign_in_code_sent': 'Sent a customer a sign-in code',
  'customer.guest_orders_merged': 'Merged a customer’s guest orders into their account',
  'customer.email_change_started': 'Sent a customer a link to confirm a new email address',
  'customer.email_changed': 'Customer confirmed their new email address',
  'order.claim_resolved': 'Resolved a damage claim',
  'order.claim_declined': 'Declined a damage claim',
  'claims.settings_changed': 'Changed the claim auto-approval rule',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

export const AUDIT_ENTITY_LABELS = {
  staff: 'Staff account',
  promo_code: 'Promo code',
  product: 'Product',
  review: 'Review',
  order: 'Order',
  customer: 'Customer',
  subscription: 'Subscription',
  export: 'Export',
  bulk_swap: 'Bulk swap',
  sync: 'NetSuite sync',
  queue: 'Queue',
  claim_settings: 'Claim rules',
} as const;
export type AuditEntityType = keyof typeof AUDIT_ENTITY_LABELS;
export const AUDIT_ENTITY_TYPES = Object.keys(AUDIT_ENTITY_LABELS) as AuditEntityType[];

export const AUDIT_MESSAGES = {
  actionInvalid: 'Choose an action from the list.',
  entityTypeInvalid: 'Choose a kind of record from the list.',
  dateInvalid: 'Dates must be written as yyyy-mm-dd.',
  dateOrder: 'The "from" date must be on or before the "to" date.',
  pageLimit: 'Limit must be a whole number from 1 to 200',
  pageOffset: 'Offset must be a whole number of at least 0',
} as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, AUDIT_MESSAGES.dateInvalid).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), AUDIT_MESSAGES.dateInvalid);
const queryInt = (message: string, min: number, max: number) => z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

/** GET /api/admin/audit (and /api/admin/audit.csv): every filter optional; days are UTC, `to` inclusive. */
export const auditQuerySchema = z
  .object({
    /** Staff email (or part of it). */
    actor: textField({ max: 320 }).optional(),
    entityType: z.enum(AUDIT_ENTITY_TYPES as [AuditEntityType, ...AuditEntityType[]], { error: AUDIT_MESSAGES.entityTypeInvalid }).optional(),
    entityId: textField({ max: 100 }).optional(),
    action: z.enum(AUDIT_ACTIONS as [AuditAction, ...AuditAction[]], { error: AUDIT_MESSAGES.actionInvalid }).optional(),
    from: day.optional(),
    to: day.optional(),
    limit: queryInt(AUDIT_MESSAGES.pageLimit, 1, 200).default(50),
    offset: queryInt(AUDIT_MESSAGES.pageOffset, 0, 10_000_000).default(0),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: AUDIT_MESSAGES.dateOrder, path: ['from'] });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  actorRole: z.enum(STAFF_ROLES).nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), total: z.number() });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The words for an action or entity type; an unknown one (from a later release) shows as stored. */
export const auditActionLabel = (action: string): string => (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
export const auditEntityLabel = (type: string): string => (AUDIT_ENTITY_LABELS as Record<string, string>)[type] ?? type;

/** The CSV download's columns, in order. */
export const AUDIT_CSV_COLUMNS = ['Time', 'Staff', 'Role', 'Action', 'Record', 'Record id', 'Before', 'After', 'Address', 'User agent', 'Request id'] as const;
