/**
 * The back office's customers (issue 23): the list (GET /api/admin/customers), a customer's page
 * (GET /api/admin/customers/{id}), notes on customers and orders, tags, and the privacy requests
 * (export, anonymise). A customer is everyone who bought, subscribed or signed up, guests and accounts
 * joined by email; an account's customer id is the account's id (docs/decisions/admin.md, "Customers").
 */
import { z } from 'zod';
import { textField } from './fields';

export const CUSTOMER_SORTS = ['lastOrder', 'spend'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export const CUSTOMER_SORT_LABELS: Record<CustomerSort, string> = { lastOrder: 'Last order, newest first', spend: 'Lifetime spend, highest first' };

export const CUSTOMER_PAGE_SIZE = 50;
export const CUSTOMER_NOTE_MAX_LENGTH = 2000;
export const CUSTOMER_TAG_MAX_LENGTH = 30;
export const CUSTOMER_TAGS_MAX = 20;
/** A tag: lower-case letters, digits, spaces and dashes (what staff type, e.g. "vip", "wholesale lead"). */
export const CUSTOMER_TAG_PATTERN = /^[a-z0-9][a-z0-9 -]*$/;

export const CUSTOMER_MESSAGES = {
  notFound: 'Customer not found',
  orderNotFound: 'Order not found',
  sort: 'Sort must be lastOrder or spend',
  page: 'Page must be a whole number from 1 to 10000',
  search: 'Search must be at most 200 characters',
  tag: `A tag is 1 to ${CUSTOMER_TAG_MAX_LENGTH} letters, digits, spaces or dashes`,
  tags: `At most ${CUSTOMER_TAGS_MAX} tags`,
  noteRequired: 'Please write the note.',
  noteTooLong: `A note is at most ${CUSTOMER_NOTE_MAX_LENGTH} characters`,
  anonymised: 'This customer was anonymised; their personal details are gone.',
  anonymiseConfirm: 'Type the customer’s email to confirm.',
  noAccount: 'This customer has no account (a guest): there is nothing to sign in to. They can make one at checkout.',
  codeSent: 'A sign-in code is on its way to the customer. It works for 10 minutes.',
  notVerified: 'The account has not proved it holds this email yet. Send the customer a sign-in code; once they have signed in with it, merge again.',
  nothingToMerge: 'This customer has no guest orders to merge.',
} as const;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** A tag as staff typed it, trimmed, lower-cased, inner spaces collapsed. */
export const customerTagSchema = z
  .string({ error: CUSTOMER_MESSAGES.tag })
  .transform((t) => t.trim().toLowerCase().replace(/\s+/g, ' '))
  .pipe(z.string().min(1, CUSTOMER_MESSAGES.tag).max(CUSTOMER_TAG_MAX_LENGTH, CUSTOMER_MESSAGES.tag).regex(CUSTOMER_TAG_PATTERN, CUSTOMER_MESSAGES.tag));

/** GET /api/admin/customers?q=&tag=&sort=&page= */
export const customerListQuerySchema = z.object({
  q: z.preprocess(blankToUndefined, z.string().trim().max(200, CUSTOMER_MESSAGES.search).optional()),
  tag: z.preprocess(blankToUndefined, customerTagSchema.optional()),
  sort: z.preprocess(blankToUndefined, z.enum(CUSTOMER_SORTS, { error: CUSTOMER_MESSAGES.sort }).default('lastOrder')),
  page: z.preprocess(blankToUndefined, z.coerce.number({ error: CUSTOMER_MESSAGES.page }).int(CUSTOMER_MESSAGES.page).min(1, CUSTOMER_MESSAGES.page).max(10_000, CUSTOMER_MESSAGES.page).default(1)),
});
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

export const customerSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** Has an account (else a guest). */
  hasAccount: z.boolean(),
  orderCount: z.number(),
  /** Cents, net of refunds. */
  lifetimeSpend: z.number(),
  firstOrderAt: z.string().nullable(),
  lastOrderAt: z.string().nullable(),
  tags: z.array(z.string()),
  anonymised: z.boolean(),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

export const customerListSchema = z.object({
  customers: z.array(customerSummarySchema),
  page: z.number(),
  pageSize: z.number(),
  /** Whether a next page has rows (no total: counting a million customers per page is not worth it). */
  hasMore: z.boolean(),
});
export type CustomerList = z.infer<typeof customerListSchema>;

export const customerNoteSchema = z.object({
  id: z.number(),
  body: z.string(),
  orderId: z.string().nullable(),
  author: z.string(),
  at: z.string(),
});
export type CustomerNote = z.infer<typeof customerNoteSchema>;

/** GET /api/admin/orders/{id}/notes: the order's notes, newest first, and its customer. */
export const orderNotesSchema = z.object({ customerId: z.string().nullable(), notes: z.array(customerNoteSchema) });
export type OrderNotes = z.infer<typeof orderNotesSchema>;

/** POST /api/admin/customers/{id}/notes and /api/admin/orders/{id}/notes */
export const customerNoteInputSchema = z.object({
  body: textField({ max: CUSTOMER_NOTE_MAX_LENGTH, required: CUSTOMER_MESSAGES.noteRequired, tooLong: CUSTOMER_MESSAGES.noteTooLong, multiline: true }).min(1, CUSTOMER_MESSAGES.noteRequired),
});
export type CustomerNoteInput = z.infer<typeof customerNoteInputSchema>;

/** PUT /api/admin/customers/{id}/tags: the whole set (duplicates dropped). */
export const customerTagsInputSchema = z.object({
  tags: z
    .array(customerTagSchema, { error: CUSTOMER_MESSAGES.tags })
    .max(CUSTOMER_TAGS_MAX, CUSTOMER_MESSAGES.tags)
    .transform((tags) => [...new Set(tags)].sort()),
});

/** POST /api/admin/customers/{id}/anonymise: the customer's email typed again, so it is never one click. */
export const anonymiseInputSchema = z.object({ confirmEmail: z.string({ error: CUSTOMER_MESSAGES.anonymiseConfirm }).trim().min(1, CUSTOMER_MESSAGES.anonymiseConfirm) });

/** POST /api/admin/customers/{id}/merge-guest-orders */
export const mergeGuestOrdersResultSchema = z.object({ merged: z.array(z.string()) });

export const TIMELINE_KINDS = ['order', 'refund', 'plan', 'email', 'review', 'note', 'credit', 'audit'] as const;
export type CustomerTimelineKind = (typeof TIMELINE_KINDS)[number];
export const TIMELINE_KIND_LABELS: Record<CustomerTimelineKind, string> = {
  order: 'Order',
  refund: 'Refund',
  plan: 'Subscription',
  email: 'Email',
  review: 'Review',
  note: 'Note',
  credit: 'Store credit',
  audit: 'Staff change',
};

export const customerTimelineEntrySchema = z.object({
  kind: z.enum(TIMELINE_KINDS),
  at: z.string(),
  /** Staff's words: what happened. */
  title: z.string(),
  detail: z.string().nullable(),
  /** Who did it (staff), when it was staff. */
  by: z.string().nullable(),
  orderId: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  /** A damage claim resolved with a replacement: the $0 replacement order (linked beside the claim). */
  replacementOrderId: z.string().nullable(),
});
export type CustomerTimelineEntry = z.infer<typeof customerTimelineEntrySchema>;

export const customerOrderSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  total: z.number(),
  refunded: z.number(),
  itemCount: z.number(),
});
export const customerPlanSchema = z.object({
  id: z.string(),
  status: z.string(),
  statusLabel: z.string(),
  amount: z.number(),
  everyMonths: z.number(),
  nextBillingDate: z.string().nullable(),
  items: z.array(z.object({ name: z.string(), quantity: z.number() })),
});
export const customerReviewSchema = z.object({ id: z.number(), productName: z.string(), rating: z.number(), title: z.string().nullable(), createdAt: z.string(), hidden: z.boolean() });
export const customerEmailSchema = z.object({ kind: z.string(), label: z.string(), status: z.string(), at: z.string() });

/** A store-credit movement as staff see it (docs/decisions/store-credit.md): amounts as signed 2-decimal strings. */
export const customerCreditEntrySchema = z.object({
  id: z.number(),
  kind: z.string(),
  label: z.string(),
  amount: z.string(),
  balanceAfter: z.string(),
  orderId: z.string().nullable(),
  /** A goodwill grant's expiry (ISO time; null or absent: never). */
  expiresAt: z.string().nullable().optional(),
  createdAt: z.string(),
  reason: z.string().nullable(),
  staffName: z.string().nullable(),
});
/** An account's store credit: its balance ("12.50") and ledger, newest first (at most 100). Null for a guest. */
export const customerCreditSchema = z.object({ balance: z.string(), entries: z.array(customerCreditEntrySchema) });
export type CustomerCredit = z.infer<typeof customerCreditSchema>;

export const customerDetailSchema = customerSummarySchema.extend({
  phone: z.string().nullable(),
  signedUpAt: z.string().nullable(),
  newsletter: z.boolean(),
  refunded: z.number(),
  /** Cents: lifetime spend / orders, rounded; null without orders. */
  averageOrder: z.number().nullable(),
  orders: z.array(customerOrderSchema),
  plans: z.array(customerPlanSchema),
  reviews: z.array(customerReviewSchema),
  emails: z.array(customerEmailSchema),
  notes: z.array(customerNoteSchema),
  /** The account's store credit; null for a guest (a guest has no ledger). */
  credit: customerCreditSchema.nullable(),
  timeline: z.array(customerTimelineEntrySchema),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;
