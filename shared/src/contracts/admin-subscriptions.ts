/**
 * Subscribe & Save plans in the back office (issue 11 "Subscriptions"): the plan table
 * (GET /api/admin/subscriptions), a plan with its billing history (GET /api/admin/subscriptions/{id}),
 * the at-risk list (GET /api/admin/subscriptions/at-risk) and the actions staff take on a customer's
 * behalf (POST /api/admin/subscriptions/{id}/pause, /resume, /skip, /reschedule, /frequency, /cancel), each audited
 * and emailed to the customer. Every action answers the plan as the detail shows it. The rules are in
 * docs/decisions/subscriptions.md ("Staff actions on a plan").
 */
import { z } from 'zod';
import { oneTimeItemSchema } from './ship-now-add-ons';
import { customerReasonSchema } from './cancellation';
import { planConsentSchema, priceNoticeSchema } from './subscription-terms';
import { textField } from './fields';
import { PLAN_MAX_LINES } from '../constants';
import {
  changeAddressRequestSchema,
  changeItemsRequestSchema,
  RESCHEDULE_MAX_DAYS_AHEAD,
  SKIPPED_PERIOD_REASONS,
  SUBSCRIPTION_INTERVALS,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_STATUSES,
  intervalCountField,
  subscriptionItemSchema,
  type SubscriptionInterval,
  type SubscriptionStatus,
} from './subscriptions';

// ---------------------------------------------------------------- staff words

export const ADMIN_SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

export const ADMIN_SUBSCRIPTION_INTERVAL_LABELS: Record<SubscriptionInterval, string> = {
  monthly: 'Monthly',
  quarterly: 'Every 3 months',
  biannual: 'Every 6 months',
  annual: 'Yearly',
};

/**
 * Why a paused plan is paused. `staff`: paused in the back office while its renewals were paid (staff
 * may resume it on its saved card). `payment-failed`: its renewals were failing when it was paused
 * (dunning ran out, no saved card, or staff paused it mid-dunning): only the customer can restart it,
 * with a new card (My Subscriptions, "Resume with a new card").
 */
export const PAUSE_CAUSES = ['staff', 'payment-failed'] as const;
export type PauseCause = (typeof PAUSE_CAUSES)[number];
export const PAUSE_CAUSE_LABELS: Record<PauseCause, string> = {
  staff: 'Paused by staff',
  'payment-failed': 'Paused: renewal payment failed',
};

/** What happened to one billing period of a plan (its history). */
export const BILLING_OUTCOMES = ['charged', 'pending', 'declined', 'failed', 'refunded', 'skipped'] as const;
export type BillingOutcome = (typeof BILLING_OUTCOMES)[number];
export const BILLING_OUTCOME_LABELS: Record<BillingOutcome, string> = {
  charged: 'Charged',
  pending: 'Processing',
  declined: 'Declined',
  failed: 'Not charged',
  refunded: 'Refunded',
  skipped: 'Skipped',
};

/**
 * Why a plan is on the at-risk list: an item its next delivery could not have, its renewal payment
 * failing (dunning), its stored card expiring before the next billing date (the card is good through
 * the last day of its expiry month; plans whose card's expiry is not known yet are not listed for it),
 * or (issue 23) an item whose stock runs short before the plan's next delivery by the stock cover's
 * walk (renewals due before it, add-ons and the sales rate; not listed again for an item already
 * unavailable).
 */
export const AT_RISK_REASONS = ['item-unavailable', 'dunning', 'card-expiring', 'stock-short'] as const;
export type AtRiskReason = (typeof AT_RISK_REASONS)[number];
export const AT_RISK_REASON_LABELS: Record<AtRiskReason, string> = {
  'item-unavailable': 'Item unavailable',
  dunning: 'Payment failing',
  'card-expiring': 'Card expires before the next billing date',
  'stock-short': 'Stock runs short before this delivery',
};

/** Why an item of a plan cannot be delivered: the renewal's stock rule (active and enough in stock). */
export const UNAVAILABLE_ITEM_PROBLEMS = ['out-of-stock', 'inactive', 'removed'] as const;
export type UnavailableItemProblem = (typeof UNAVAILABLE_ITEM_PROBLEMS)[number];
export const UNAVAILABLE_ITEM_PROBLEM_LABELS: Record<UnavailableItemProblem, string> = {
  'out-of-stock': 'Out of stock',
  inactive: 'No longer sold',
  removed: 'Removed from the catalogue',
};

/** The actions staff take on a customer's behalf. */
export const ADMIN_SUBSCRIPTION_ACTIONS = ['pause', 'resume', 'skip', 'reschedule', 'frequency', 'cancel'] as const;
export type AdminSubscriptionAction = (typeof ADMIN_SUBSCRIPTION_ACTIONS)[number];
export const ADMIN_SUBSCRIPTION_ACTION_LABELS: Record<AdminSubscriptionAction, string> = {
  pause: 'Pause plan',
  resume: 'Resume plan',
  skip: 'Skip next delivery',
  reschedule: 'Change next date',
  frequency: 'Change delivery frequency',
  cancel: 'Cancel plan',
};

// ---------------------------------------------------------------- rules

/** The window and the resume rule are the shopper's too: one place, ./subscriptions.ts. */
export { missedWhilePaused, RESCHEDULE_MAX_DAYS_AHEAD, rescheduleWindow } from './subscriptions';

// ---------------------------------------------------------------- messages

export const ADMIN_SUBSCRIPTION_MESSAGES = {
  notFound: SUBSCRIPTION_MESSAGES.notFound,
  status: 'Status must be active, paused, cancelled or expired',
  reason: 'Choose a reason from the list.',
  date: 'Dates must be written as yyyy-mm-dd.',
  dateOrder: 'The "from" date must be on or before the "to" date.',
  minFailedAttempts: 'Failed attempts must be a whole number from 0 to 10',
  pageLimit: 'Limit must be a whole number from 1 to 100',
  pageOffset: 'Offset must be a whole number of at least 0',
  nextBillingDate: 'Choose the day of the next delivery (yyyy-mm-dd).',
  cancelReason: 'Please say why the plan is cancelled.',
  pauseReason: 'Please say why the plan is paused (the customer is told).',
  cancelReasonTooLong: 'The reason can be at most 500 characters.',
  frequencyReason: 'Please say why the delivery frequency is changed.',
  frequencyNotActive: "Only an active plan's delivery frequency can be changed.",
  cadenceNotOffered: SUBSCRIPTION_MESSAGES.cadenceNotOffered,
  // On the customer's behalf (issue 21): items, address, a card link; each with a reason.
  itemsReason: 'Please say why the items are changed.',
  addressReason: 'Please say why the delivery address is changed.',
  cardLinkReason: 'Please say why the customer is sent a card link.',
  itemsNotActive: "Only an active plan's items can be changed.",
  itemsNotOnPlan: "The plan's items have changed since this page was loaded, so nothing was changed. Reload the plan and try again.",
  tooManyItems: `A plan can have at most ${PLAN_MAX_LINES} different items. Remove one before adding another.`,
  productNotSold: 'That product is not sold at the moment, so it cannot be added to the plan. Choose another.',
  sizeNotSold: (name: string) => `Choose one of the sizes of ${name} that we sell.`,
  noSizes: (name: string) => `${name} comes in one size only: choose it without a size.`,
  noItemsLeft: 'Keep at least one item, or cancel the plan instead.',
  itemNotSold: (name: string) => `${name} is no longer sold, so it cannot stay on the plan: remove it (quantity 0).`,
  itemOutOfStock: (name: string) => `${name} is out of stock, so its quantity cannot be raised. It can be kept, lowered or removed.`,
  cardLinkNoEmail: 'This plan has no customer email to send a link to.',
  // Refusals (409 unless said otherwise).
  pauseNotActive: 'Only an active plan can be paused.',
  skipNotActive: 'Only an active plan has a next delivery to skip.',
  rescheduleNotActive: 'Only an active plan has a next delivery to move.',
  notPaused: SUBSCRIPTION_MESSAGES.notPaused,
  alreadyEnded: SUBSCRIPTION_MESSAGES.alreadyEnded,
  needsNewCard:
    'This plan was paused because its renewal payment failed, so staff cannot restart it on the same card. The customer must sign in and choose "Resume with a new card" in My Subscriptions.',
  noStoredCard:
    'This plan has no saved card on file, so staff cannot restart it. The customer must sign in and choose "Resume with a new card" in My Subscriptions.',
  chargeInProgress:
    "A charge for this plan's next delivery is being processed, or its outcome is not known yet. Try again in a few minutes; if this stays, check the payment with the payment service first.",
  /** 409 SUBSCRIPTION_CHARGE_BEING_CHECKED: skip, move, resume past the period, while its charge is held or its answer lost. */
  chargeBeingChecked:
    "The charge for this plan's next delivery was held for review or got no answer from the payment service, so that delivery cannot be skipped or moved until the charge is checked in the payment service (Authorize.Net). Pause and cancel still work.",
  /** Beside the actions and in the pause and cancel dialogs while the period's charge is being checked. */
  chargeStands:
    "The charge for this plan's next delivery is being checked: it was held for review or got no answer from the payment service. Check it in the payment service (Authorize.Net). Pausing or cancelling the plan does not undo that charge: if it went through, that delivery stands (it ships, or is refunded by hand).",
  inDunning: "This plan's renewal payment is failing and being retried, so its date cannot be moved. Skip the delivery, pause or cancel the plan instead.",
  /** 422, with `earliest` and `latest` (yyyy-mm-dd) beside it. */
  dateNotAllowed: (earliest: string, latest: string) =>
    `Choose a day from ${earliest} to ${latest}: from tomorrow, at most ${RESCHEDULE_MAX_DAYS_AHEAD} days ahead, and before the delivery after next.`,
  /** 422: a plan so far behind that no day is left before the delivery after next. */
  noDateAllowed: "This plan's next delivery cannot be moved: the delivery after it is due within a day. Skip the delivery instead.",
  // Toasts.
  paused: 'Plan paused',
  resumed: 'Plan resumed',
  skipped: 'Next delivery skipped',
  rescheduled: 'Next delivery date changed',
  frequencyChanged: 'Delivery frequency changed',
  cancelled: 'Plan cancelled',
  itemsChanged: 'Items changed',
  addressChanged: 'Delivery address changed',
  cardLinkSent: 'Card update link sent',
} as const;

// ---------------------------------------------------------------- requests

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const queryInt = (message: string, min: number, max: number) => z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
const day = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), message);

/**
 * GET /api/admin/subscriptions: `search` is part of the customer's name or email, or the start of a
 * plan id; `dueFrom`/`dueTo` bound the next billing date (UTC days, both ends included);
 * `minFailedAttempts` keeps plans with at least that many failed renewals (1: in dunning). Sorted by
 * next billing date, soonest first.
 */
export const adminSubscriptionsQuerySchema = z
  .object({
    search: z.preprocess(blankToUndefined, textField({ max: 200 }).optional()),
    status: z.preprocess(blankToUndefined, z.enum(SUBSCRIPTION_STATUSES, { error: ADMIN_SUBSCRIPTION_MESSAGES.status }).optional()),
    dueFrom: z.preprocess(blankToUndefined, day(ADMIN_SUBSCRIPTION_MESSAGES.date).optional()),
    dueTo: z.preprocess(blankToUndefined, day(ADMIN_SUBSCRIPTION_MESSAGES.date).optional()),
    minFailedAttempts: z.preprocess(blankToUndefined, queryInt(ADMIN_SUBSCRIPTION_MESSAGES.minFailedAttempts, 0, 10).optional()),
    limit: queryInt(ADMIN_SUBSCRIPTION_MESSAGES.pageLimit, 1, 100).default(50),
    offset: queryInt(ADMIN_SUBSCRIPTION_MESSAGES.pageOffset, 0, 10_000_000).default(0),
  })
  .refine((q) => !q.dueFrom || !q.dueTo || q.dueFrom <= q.dueTo, { message: ADMIN_SUBSCRIPTION_MESSAGES.dateOrder, path: ['dueFrom'] });
export type AdminSubscriptionsQuery = z.infer<typeof adminSubscriptionsQuerySchema>;

/** GET /api/admin/subscriptions/at-risk: every active plan at risk, or those at risk for one reason. */
export const adminAtRiskQuerySchema = z.object({
  reason: z.preprocess(blankToUndefined, z.enum(AT_RISK_REASONS, { error: ADMIN_SUBSCRIPTION_MESSAGES.reason }).optional()),
  limit: queryInt(ADMIN_SUBSCRIPTION_MESSAGES.pageLimit, 1, 100).default(50),
  offset: queryInt(ADMIN_SUBSCRIPTION_MESSAGES.pageOffset, 0, 10_000_000).default(0),
});
export type AdminAtRiskQuery = z.infer<typeof adminAtRiskQuerySchema>;

/**
 * POST /api/admin/subscriptions/{id}/reschedule: the UTC day of the next delivery (the time of day of
 * the billing date stays), within `rescheduleWindow`; later deliveries follow from it.
 */
export const rescheduleSubscriptionSchema = z.object({ nextBillingDate: day(ADMIN_SUBSCRIPTION_MESSAGES.nextBillingDate) });
export type RescheduleSubscriptionRequest = z.infer<typeof rescheduleSubscriptionSchema>;

/**
 * POST /api/admin/subscriptions/{id}/frequency: deliver every `intervalCount` months (one of
 * PLAN_CADENCE_MONTHS), and why (kept in the audit trail; not sent to the customer).
 */
export const changeFrequencyByStaffSchema = z.object({
  intervalCount: intervalCountField,
  reason: textField({ max: 500, required: ADMIN_SUBSCRIPTION_MESSAGES.frequencyReason, tooLong: ADMIN_SUBSCRIPTION_MESSAGES.cancelReasonTooLong }).min(1, ADMIN_SUBSCRIPTION_MESSAGES.frequencyReason),
});
export type ChangeFrequencyByStaffRequest = z.infer<typeof changeFrequencyByStaffSchema>;

const staffReason = (required: string) => textField({ max: 500, required, tooLong: ADMIN_SUBSCRIPTION_MESSAGES.cancelReasonTooLong }).min(1, required);

/** PUT /api/admin/subscriptions/{id}/items: the shopper's change of items (the same rules), and why (audit trail only). */
export const changeItemsByStaffSchema = changeItemsRequestSchema.extend({ reason: staffReason(ADMIN_SUBSCRIPTION_MESSAGES.itemsReason) });
export type ChangeItemsByStaffRequest = z.infer<typeof changeItemsByStaffSchema>;

/** PUT /api/admin/subscriptions/{id}/address: the checkout's address rules, and why (audit trail only). */
export const changeAddressByStaffSchema = changeAddressRequestSchema.extend({ reason: staffReason(ADMIN_SUBSCRIPTION_MESSAGES.addressReason) });
export type ChangeAddressByStaffRequest = z.infer<typeof changeAddressByStaffSchema>;

/** POST /api/admin/subscriptions/{id}/card-link: why the customer is sent a link to give the plan a new card. */
export const sendCardLinkSchema = z.object({ reason: staffReason(ADMIN_SUBSCRIPTION_MESSAGES.cardLinkReason) });
export type SendCardLinkRequest = z.infer<typeof sendCardLinkSchema>;

/**
 * POST /api/admin/subscriptions/{id}/pause: why (kept in the audit trail, and told to the customer on My
 * Subscriptions and in the pause email: "Our team paused this plan (reason)").
 */
export const pauseSubscriptionByStaffSchema = z.object({ reason: staffReason(ADMIN_SUBSCRIPTION_MESSAGES.pauseReason) });
export type PauseSubscriptionByStaffRequest = z.infer<typeof pauseSubscriptionByStaffSchema>;

/** POST /api/admin/subscriptions/{id}/cancel: why (kept in the audit trail; not sent to the customer). */
export const cancelSubscriptionByStaffSchema = z.object({
  reason: textField({ max: 500, required: ADMIN_SUBSCRIPTION_MESSAGES.cancelReason, tooLong: ADMIN_SUBSCRIPTION_MESSAGES.cancelReasonTooLong }).min(1, ADMIN_SUBSCRIPTION_MESSAGES.cancelReason),
  /** Issue 22: why the customer cancels, when they said (CANCEL_REASONS); the report counts it. */
  customerReason: customerReasonSchema,
});
export type CancelSubscriptionByStaffRequest = z.infer<typeof cancelSubscriptionByStaffSchema>;

// ---------------------------------------------------------------- answers

/** A row of the plan table (and the head of the detail). Money as two-decimal strings, times as ISO. */
export const adminSubscriptionSummarySchema = z.object({
  id: z.string().uuid(),
  customerName: z.string(),
  customerEmail: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  items: z.array(subscriptionItemSchema),
  /** What each billing period charges. */
  amount: z.string(),
  interval: z.enum(SUBSCRIPTION_INTERVALS),
  intervalCount: z.number().int(),
  nextBillingDate: z.string(),
  /** Failed renewals of the unpaid period (dunning); 0 when all is well. */
  failedAttempts: z.number().int(),
  /** When the unpaid period is tried again (dunning), or null. */
  retryAt: z.string().nullable(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
});
export type AdminSubscriptionSummary = z.infer<typeof adminSubscriptionSummarySchema>;

export const adminSubscriptionsPageSchema = z.object({ subscriptions: z.array(adminSubscriptionSummarySchema), total: z.number().int() });
export type AdminSubscriptionsPage = z.infer<typeof adminSubscriptionsPageSchema>;

/** One billing period of a plan: charged, processing, declined, not charged, refunded or skipped. Newest first. */
export const billingHistoryEntrySchema = z.object({
  /** yyyy-MM-dd (UTC) of the period's billing date. */
  period: z.string(),
  outcome: z.enum(BILLING_OUTCOMES),
  /** What was (or would have been) charged; null for a skipped period. */
  amount: z.string().nullable(),
  /** The period's order (the latest attempt's); null when none was made (skipped, short stock, no card). */
  orderId: z.string().uuid().nullable(),
  /** The payment service's sentence, or why nothing was charged. */
  message: z.string().nullable(),
  cardType: z.string().nullable(),
  cardLastFour: z.string().nullable(),
  /** Why a skipped period was skipped; null otherwise. */
  skipReason: z.enum(SKIPPED_PERIOD_REASONS).nullable(),
  /** When the payment row (or the skip) was recorded. */
  at: z.string(),
});
export type BillingHistoryEntry = z.infer<typeof billingHistoryEntrySchema>;

/** Every order of a plan (its first delivery, each renewal, each failed attempt's cancelled order), newest first. */
export const adminSubscriptionOrderSchema = z.object({ id: z.string().uuid(), status: z.string(), total: z.string(), createdAt: z.string() });

/**
 * A change the customer made to their plan on My Subscriptions (`customer`), or the plan made by itself
 * (`plan`: a timed pause that ended): kind paused, resumed, skipped, rescheduled, frequency, items, card or
 * cancelled, with what changed (field → value; times ISO). Staff changes are in the plan's audit trail.
 */
export const planCustomerChangeSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.enum(['customer', 'plan']),
  kind: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** How the customer made it when not on My Subscriptions: `email-link` (a one-click action from an email; PLAN_CHANGE_VIA_WORDS). */
  via: z.enum(['email-link']).nullable().optional(),
});
export type PlanCustomerChange = z.infer<typeof planCustomerChangeSchema>;

/** GET /api/admin/subscriptions/{id}, and the answer of every action. */
export const adminSubscriptionDetailSchema = adminSubscriptionSummarySchema.extend({
  userId: z.string().uuid().nullable(),
  discountPercent: z.number().int(),
  shippingAddress: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }).nullable(),
  /** Brand and last four of the plan's card: the one stored on the plan (the customer's latest change), else the card of its latest approved payment (@nh/server findPlanCardBrand). */
  cardType: z.string().nullable(),
  cardLastFour: z.string().nullable(),
  /** A saved card (payment profile) is on file for renewals. */
  hasStoredCard: z.boolean(),
  /** yyyy-MM-dd: the last day the saved card is good (the end of its expiry month); null while not known. */
  cardExpiresOn: z.string().nullable(),
  /** Why a paused plan is paused; null unless paused. */
  pauseCause: z.enum(PAUSE_CAUSES).nullable(),
  /** Who paused a plan paused with its payments in order (the customer, or staff with their reason); null otherwise. */
  pausedBy: z.object({ by: z.enum(['customer', 'staff']), reason: z.string().nullable() }).nullable(),
  /** yyyy-mm-dd: a plan the customer paused for a number of deliveries resumes that day; null otherwise. */
  resumesOn: z.string().nullable(),
  /** What staff can do now (the server refuses the others with a message). */
  actions: z.object({
    pause: z.boolean(),
    resume: z.boolean(),
    skip: z.boolean(),
    reschedule: z.boolean(),
    frequency: z.boolean(),
    cancel: z.boolean(),
    // On the customer's behalf (issue 21), each behind its own dialog (not in ADMIN_SUBSCRIPTION_ACTIONS).
    items: z.boolean(),
    address: z.boolean(),
    cardLink: z.boolean(),
  }) satisfies z.ZodType<Record<AdminSubscriptionAction, boolean>>,
  /** The next delivery's charge was held for review or its answer lost (staff check it); pause and cancel go through, and it stands. */
  chargeBeingChecked: z.boolean(),
  /** The days the next delivery may be moved to (both ends included); null when it cannot be moved. */
  rescheduleWindow: z.object({ earliest: z.string(), latest: z.string() }).nullable(),
  history: z.array(billingHistoryEntrySchema),
  orders: z.array(adminSubscriptionOrderSchema),
  /** The customer's own changes (and the plan's), newest first. */
  customerChanges: z.array(planCustomerChangeSchema),
  /**
   * Issue 21: the one-time add-ons of the next delivery (priced when charged), and whether Ship now and
   * adding one may be tried now.
   */
  oneTimeItems: z.array(oneTimeItemSchema.omit({ priceToday: true })),
  addOnActions: z.object({ shipNow: z.boolean(), oneTimeItems: z.boolean() }),
  /** Consent on record (issue 22): what the shopper agreed to at subscribe; null for plans from before it was kept. */
  consent: planConsentSchema.nullable(),
  /** Price-change notices sent, newest first. */
  priceNotices: z.array(priceNoticeSchema),
});
export type AdminSubscriptionDetail = z.infer<typeof adminSubscriptionDetailSchema>;

export const unavailableItemSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  problem: z.enum(UNAVAILABLE_ITEM_PROBLEMS),
  /** How many the next delivery needs, and how many are in stock. */
  wanted: z.number().int(),
  available: z.number().int(),
});
export type UnavailableItem = z.infer<typeof unavailableItemSchema>;

/** An item of a plan whose stock runs short before the plan's next delivery (the stock cover's walk). */
export const shortItemSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  /** Units in stock now. */
  inStock: z.number().int(),
  /** yyyy-MM-dd: the first renewal day the stock does not cover (this plan's delivery is on or after it). */
  runsShortOn: z.string(),
});
export type ShortItem = z.infer<typeof shortItemSchema>;

/** An active plan at risk, soonest billing first. */
export const atRiskPlanSchema = adminSubscriptionSummarySchema.extend({
  reasons: z.array(z.enum(AT_RISK_REASONS)),
  unavailableItems: z.array(unavailableItemSchema),
  /** In dunning: the last failed attempt's sentence (the payment service's, or why nothing was charged). */
  lastPaymentMessage: z.string().nullable(),
  /** yyyy-MM-dd: the last day the saved card is good, when known (card-expiring: before the next billing date). */
  cardExpiresOn: z.string().nullable(),
  /** stock-short: the items whose stock runs short before this delivery. */
  shortItems: z.array(shortItemSchema),
});
export type AtRiskPlan = z.infer<typeof atRiskPlanSchema>;
export const atRiskPageSchema = z.object({ plans: z.array(atRiskPlanSchema), total: z.number().int() });
export type AtRiskPage = z.infer<typeof atRiskPageSchema>;
