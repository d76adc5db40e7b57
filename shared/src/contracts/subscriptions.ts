/**
 * Subscribe & Save (operations spec §2 "My Subscriptions", §3 "Subscription (page view)", §7, §8):
 * POST /api/payments/subscribe-nonce (its request schema lives with checkout), GET /api/subscriptions,
 * POST /api/subscriptions/{id}/cancel. One place for the plan's rules and the messages both sides show.
 */
import { z } from 'zod';
import { PLAN_ITEM_MAX_QUANTITY, PLAN_MAX_LINES, RESCHEDULE_MAX_DAYS_AHEAD, SUBSCRIBE_AND_SAVE_PERCENT } from '../constants';
import { addressSchema, CHECKOUT_MESSAGES, opaqueDataFields } from './checkout';
import { idField, textField } from './fields';
import { formatUtcDay } from '../days';
import { oneTimeItemSchema, shipNowStatusSchema } from './ship-now-add-ons';

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_INTERVALS = ['monthly', 'quarterly', 'biannual', 'annual'] as const;
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVALS)[number];

/** Months per interval. The storefront only offers monthly (spec §7: interval 'monthly'). */
export const INTERVAL_MONTHS: Record<SubscriptionInterval, number> = { monthly: 1, quarterly: 3, biannual: 6, annual: 12 };

/**
 * The cadences the storefront offers, in months (PLAN_CADENCE_MONTHS; the API's config, served by GET
 * /api/subscriptions/cadences). A plan is `interval: 'monthly'` with `intervalCount` one of these.
 */
export const DEFAULT_PLAN_CADENCE_MONTHS = [1, 2, 3] as const;

/**
 * PLAN_CADENCE_MONTHS as configured ("1,2,3"): positive whole numbers, sorted and unique; a message a
 * person can act on otherwise.
 */
export const planCadenceMonthsSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean).map(Number) : v),
  z
    .array(z.number().int('must be whole numbers of months').positive('must be positive numbers of months').max(120, 'must be at most 120 months'), { error: 'must be a comma-separated list of months such as 1,2,3' })
    .min(1, 'must list at least one number of months')
    .refine((list) => list.every((n, i) => i === 0 || n > list[i - 1]!), 'must be sorted and without repeats, such as 1,2,3'),
);

/** GET /api/subscriptions/cadences: the months a plan may be delivered every (PLAN_CADENCE_MONTHS). */
export const planCadencesSchema = z.object({ months: z.array(z.number().int().positive()) });
export type PlanCadences = z.infer<typeof planCadencesSchema>;

/** "Every month", "Every 2 months": a plan's cadence in words (screens; emails say it lower-case). */
export function cadenceWords(interval: SubscriptionInterval, intervalCount: number): string {
  const months = INTERVAL_MONTHS[interval] * intervalCount;
  if (months === 1) return 'Every month';
  return months % 12 === 0 ? (months === 12 ? 'Every year' : `Every ${months / 12} years`) : `Every ${months} months`;
}

/** "Deliver every 1, 2 or 3 months": the choice as checkout and the product page offer it. */
export function cadenceChoiceWords(months: readonly number[]): string {
  if (months.length === 1) return months[0] === 1 ? 'Deliver every month' : `Deliver every ${months[0]} months`;
  return `Deliver every ${months.slice(0, -1).join(', ')} or ${months[months.length - 1]} months`;
}

/** The plan's discount: the same 15% the pricing module applies when subscribing. */
export const SUBSCRIPTION_DISCOUNT_PERCENT = SUBSCRIBE_AND_SAVE_PERCENT;

/**
 * The billing date after `from`: one interval later, same time of day and same day of the month in
 * UTC, clamped to the month's last day (Jan 31 → Feb 28/29). UTC so the API, the workers and every
 * billing period agree whatever time zone a process runs in.
 */
export function nextBillingDate(from: Date, interval: SubscriptionInterval = 'monthly', intervalCount = 1): Date {
  const months = INTERVAL_MONTHS[interval] * intervalCount;
  const next = new Date(from.getTime());
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const daysInMonth = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(from.getUTCDate(), daysInMonth));
  return next;
}

/**
 * The billing period a charge pays: the yyyy-MM-dd (UTC) of its billing date. The first charge pays the
 * period starting on the day the plan was created; one payment row per (subscription, period).
 */
export function billingPeriodOf(billingDate: Date): string {
  return billingDate.toISOString().slice(0, 10);
}

/**
 * Dunning: after a declined renewal the next attempt is this many days later; when every retry is
 * used up the subscription is paused and the customer is told (ARCHITECTURE.md "Queues and jobs").
 */
export const RENEWAL_RETRY_DAYS = [1, 3, 7] as const;

/**
 * The renewal reminder goes out this many days before a plan's next billing date: the daily sweep
 * reminds the active plans whose billing date falls on the UTC day this many days ahead.
 */
export const RENEWAL_REMINDER_DAYS = 3;

/**
 * The heads-up before a renewal that would fail: the daily sweep looks at the active plans billed in the
 * next SUBSCRIPTION_HEADS_UP_DAYS days (UTC days 1 to 5 ahead) and emails each plan whose items are out
 * of stock or no longer sold, once per plan and billing period (docs/decisions/subscriptions.md).
 */
export const SUBSCRIPTION_HEADS_UP_DAYS = 5;

/** Moving the next delivery: at most this many days from today (shared/src/constants.ts). */
export { RESCHEDULE_MAX_DAYS_AHEAD };

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const startOfUtcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/**
 * The days (yyyy-MM-dd, UTC, both ends included) a plan's next delivery may be moved to: from tomorrow,
 * at most RESCHEDULE_MAX_DAYS_AHEAD days ahead, and before the billing date after the current next one
 * (moving past it would silently drop a delivery: skipping is its own action). Null when no day is left
 * (a plan so far behind that the delivery after next is already due).
 */
export function rescheduleWindow(next: Date, interval: SubscriptionInterval, intervalCount: number, today: Date): { earliest: string; latest: string } | null {
  const start = startOfUtcDay(today).getTime();
  const earliest = start + DAY_MS;
  const afterNext = startOfUtcDay(nextBillingDate(next, interval, intervalCount)).getTime() - DAY_MS;
  const latest = Math.min(start + RESCHEDULE_MAX_DAYS_AHEAD * DAY_MS, afterNext);
  return latest >= earliest ? { earliest: dayOf(new Date(earliest)), latest: dayOf(new Date(latest)) } : null;
}

/**
 * A plan paused with its renewals paid (by staff or by the shopper), resumed on its saved card: the billing dates that went by while it was paused (before
 * today, UTC) are skipped, never charged later; the first date of its sequence on or after today is
 * its next billing date (today's is charged by the next sweep).
 */
export function missedWhilePaused(next: Date, interval: SubscriptionInterval, intervalCount: number, today: Date): { next: Date; missed: Date[] } {
  const start = startOfUtcDay(today);
  const missed: Date[] = [];
  let current = next;
  while (current < start) {
    missed.push(current);
    current = nextBillingDate(current, interval, intervalCount);
  }
  return { next: current, missed };
}

/**
 * The next billing date after a change of cadence: the plan's last delivery (`lastPeriod`, the latest
 * period it was charged or skipped for, yyyy-mm-dd) plus the new cadence, at the next date's time of day,
 * so changing twice in one period moves the date once (always from the same last delivery). Never in the
 * past nor today (today's sweep may have run): a date before tomorrow becomes tomorrow, as the earliest day
 * a delivery may be moved to.
 */
export function nextBillingDateForCadence(lastPeriod: string, next: Date, interval: SubscriptionInterval, intervalCount: number, today: Date): Date {
  const timeOfDay = next.getTime() - startOfUtcDay(next).getTime();
  const due = nextBillingDate(new Date(Date.parse(`${lastPeriod}T00:00:00.000Z`) + timeOfDay), interval, intervalCount);
  const tomorrow = startOfUtcDay(today).getTime() + DAY_MS;
  return due.getTime() < tomorrow ? new Date(tomorrow + timeOfDay) : due;
}

/** "December 1, 2026": a UTC day (yyyy-MM-dd) as the shopper reads it, whatever their time zone. */
export function longDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return formatUtcDay(date) || day;
}

export const SUBSCRIPTION_MESSAGES = {
  /** 401 from POST /api/payments/subscribe-nonce, and the checkout's toast text (spec §8). */
  loginRequired: CHECKOUT_MESSAGES.subscribeLoginRequired,
  /** 401 from GET /api/subscriptions and the cancel call. */
  listLoginRequired: 'Please log in to see your subscriptions.',
  notFound: 'Subscription not found',
  alreadyEnded: 'This subscription has already ended.',
  created: 'Subscription created!',
  cancelled: 'Subscription cancelled',
  cancelFailedTitle: 'Cancellation failed',
  cancelFailed: 'Failed to cancel subscription. Please try again.',
  loadFailed: 'Failed to load subscriptions. Please try again later.',
  loginRequiredTitle: 'Login Required',
  empty: 'No subscriptions yet',
  // Resuming a paused plan with a new card (not in the spec: a paused plan needs a way back).
  resumed: 'Subscription resumed',
  resumeFailedTitle: 'Resume failed',
  resumeFailed: 'Failed to resume subscription. Please try again.',
  notPaused: 'Only a paused subscription can be resumed.',
  // Shoppers change their plans (issue 13, "Plans"): refusals (409 unless said otherwise), then toasts.
  pauseNotActive: 'Only an active subscription can be paused.',
  skipNotActive: 'Only an active subscription has a next delivery to skip.',
  rescheduleNotActive: 'Only an active subscription has a next delivery to move.',
  noAddress: `This subscription has no delivery address, so its card cannot be changed online. Please contact us.`,
  cardNotActive: 'Only an active subscription\'s card can be changed here. A paused subscription is resumed with a new card.',
  itemsNotActive: 'Only an active subscription\'s items can be changed.',
  needsNewCard: 'This subscription was paused because a payment failed. Please choose "Resume with a new card".',
  noStoredCard: 'There is no saved card for this subscription. Please choose "Resume with a new card".',
  chargeInProgress: 'The payment for your next delivery is being processed. Please try again in a few minutes.',
  /** 409 SUBSCRIPTION_CHARGE_BEING_CHECKED: the next delivery's payment was held or its answer lost, and our team checks it. */
  chargeBeingChecked:
    'The payment for your next delivery is being checked by our team, so that delivery cannot be changed until it is done. You can still pause or cancel your subscription.',
  /** In the pause and cancel dialogs (and their toasts) while the next delivery's payment is being checked. */
  chargeStands:
    'The payment for your next delivery is being checked by our team. If it went through, that delivery still ships and its charge stands; pausing or cancelling stops the deliveries after it.',
  inDunning: 'The payment for your next delivery failed and is being retried, so its date cannot be moved. Change your card, skip the delivery or pause the subscription instead.',
  /** My Subscriptions, on a plan whose renewal payment is being retried (Change Date, Change Frequency and Ship Now wait). */
  paymentRetrying:
    'The payment for your next delivery failed and we are trying it again. Until it goes through, its date and how often it is delivered stay as they are; you can change your card, skip the delivery or pause the subscription.',
  /** 422, with `earliest` and `latest` (yyyy-mm-dd) beside it. */
  dateNotAllowed: (earliest: string, latest: string) =>
    `Choose a day from ${longDay(earliest)} to ${longDay(latest)}: from tomorrow, at most ${RESCHEDULE_MAX_DAYS_AHEAD} days ahead, and before the delivery after next.`,
  noDateAllowed: 'The next delivery cannot be moved: the delivery after it is due within a day. You can skip it instead.',
  /** The plan is no longer what the page showed (another tab, a renewal): nothing was changed. */
  planChanged: 'Your subscription has changed since this page was loaded, so nothing was changed. Please reload the page and try again.',
  nextBillingDate: 'Choose the day of the next delivery.',
  period: 'Say which delivery to skip.',
  items: 'Choose how many of each item you want.',
  itemQuantity: `Each quantity must be a whole number from 0 to ${PLAN_ITEM_MAX_QUANTITY}.`,
  /** 422: a line of the plan is missing from the request (each is listed, 0 removes it), or one is listed twice. */
  itemsNotOnPlan: 'Your subscription\'s items have changed since this page was loaded, so nothing was changed. Please reload the page and try again.',
  /** 422: more lines than PLAN_MAX_LINES after adding. */
  tooManyItems: `A subscription can have at most ${PLAN_MAX_LINES} different items. Remove one before adding another.`,
  /** 409 (SUBSCRIPTION_ITEM_NOT_SOLD): a product to add that is unknown, inactive or out of stock. */
  productNotSold: 'That product is not sold at the moment, so it cannot be added to your subscription. Please choose another.',
  /** 409 (SUBSCRIPTION_ITEM_NOT_SOLD): a product to add whose size is missing or not one of its sizes. */
  sizeNotSold: (name: string) => `Please choose one of the sizes of ${name} that we sell.`,
  /** 409 (SUBSCRIPTION_ITEM_NOT_SOLD): a product to add that has no sizes, sent with one. */
  noSizes: (name: string) => `${name} comes in one size only. Please choose it without a size.`,
  /** 422: every quantity 0. */
  noItemsLeft: 'Keep at least one item, or cancel the subscription instead.',
  /** 409: an item no longer sold (inactive, removed, its size gone) can only be removed. */
  itemNotSold: (name: string) => `${name} is no longer sold, so it cannot stay on your subscription. Please remove it (set its quantity to 0).`,
  /** 409: an item out of stock may stay on the plan or be lowered, not raised. */
  itemOutOfStock: (name: string) => `${name} is out of stock at the moment, so its quantity cannot be raised. You can keep it, lower it or remove it.`,
  /** 422 (SUBSCRIPTION_CADENCE_NOT_OFFERED), or 400 from subscribe-nonce: a cadence not in PLAN_CADENCE_MONTHS. */
  cadenceNotOffered: (months: readonly number[]) => `Choose how often to deliver: ${cadenceChoiceWords(months).replace(/^Deliver every/, 'every')}.`,
  frequencyNotActive: 'Only an active subscription\'s delivery frequency can be changed.',
  intervalCount: CHECKOUT_MESSAGES.intervalCount,
  frequencyChanged: 'Delivery frequency updated',
  skipped: 'Next delivery skipped',
  rescheduled: 'Next delivery date changed',
  paused: 'Subscription paused',
  cardChanged: 'Card updated',
  itemsChanged: 'Items updated',
  addressChanged: 'Delivery address updated',
  changeFailedTitle: 'Change failed',
  // Pausing for a number of deliveries, and who paused (issue 21).
  pauseDeliveries: 'Choose to pause for 1, 2 or 3 deliveries, or until you resume.',
  /** 409: a timed pause resumes on the saved card, which a plan whose payment is failing (or has none) cannot. */
  timedPauseNeedsCard: 'This subscription cannot be paused for a set number of deliveries because its payment needs attention. You can still pause it until you resume it.',
  pausedFor: (deliveries: number, resumesOn: string) =>
    `Subscription paused for ${deliveries === 1 ? '1 delivery' : `${deliveries} deliveries`}: it resumes on ${longDay(resumesOn)}`,
  suggestionDismissed: 'We will not suggest this again for a while',
} as const;

/** POST /api/subscriptions/{id}/pause: no body (or no `deliveries`) pauses until resumed; `deliveries` 1..3 pauses for that many deliveries. */
export const PAUSE_DELIVERY_CHOICES = [1, 2, 3] as const;
export const pauseSubscriptionRequestSchema = z.object({
  deliveries: z
    .number({ error: SUBSCRIPTION_MESSAGES.pauseDeliveries })
    .int(SUBSCRIPTION_MESSAGES.pauseDeliveries)
    .min(1, SUBSCRIPTION_MESSAGES.pauseDeliveries)
    .max(PAUSE_DELIVERY_CHOICES.length, SUBSCRIPTION_MESSAGES.pauseDeliveries)
    .optional(),
});
export type PauseSubscriptionRequest = z.infer<typeof pauseSubscriptionRequestSchema>;

/**
 * The day a plan paused for `deliveries` deliveries resumes: its billing date that many deliveries after
 * the next one (the plan's own sequence of dates, nextBillingDate applied once per delivery), as a UTC day.
 */
export function resumeDayAfter(next: Date, interval: SubscriptionInterval, intervalCount: number, deliveries: number): string {
  let date = next;
  for (let i = 0; i < deliveries; i++) date = nextBillingDate(date, interval, intervalCount);
  return billingPeriodOf(date);
}

/**
 * Who paused a paused plan, as the shopper is told (page and email alike): `shopper` (they did),
 * `shop` (our team, with the reason staff gave), `payment` (a renewal could not be paid).
 */
export const pausedBySchema = z.object({ by: z.enum(['shopper', 'shop', 'payment']), reason: z.string().nullable() });
export type PausedBy = z.infer<typeof pausedBySchema>;

/** The sentence a paused plan shows (and its pause email opens with): who paused it, and until when. */
export function pausedWords(pausedBy: PausedBy, resumesOn: string | null): string {
  const until = resumesOn ? `It resumes on ${longDay(resumesOn)}; nothing is sent or charged until then.` : 'No deliveries are sent or charged until it is resumed.';
  switch (pausedBy.by) {
    case 'shopper':
      return `You paused this plan. ${until}`;
    case 'shop':
      return `Our team paused this plan${pausedBy.reason ? ` (${pausedBy.reason.replace(/[.\s]+$/, '')})` : ''}. ${until}`;
    case 'payment':
      return 'The last renewal could not be paid, so this plan is paused.';
  }
}

/** A cadence suggestion as the page shows it (shared/subscriptions/cadence-suggestion.ts decides it). */
export const cadenceSuggestionSchema = z.object({
  direction: z.enum(['longer', 'shorter']),
  intervalCount: z.number().int(),
  reason: z.enum(['skipped-twice', 'shipped-early-twice']),
});

/**
 * A renewal that runs more than one period late charges once, for the current period (the latest
 * billing date on or before today, UTC), and records each period it passed over as skipped: no
 * charge, no delivery. Why, as stored in subscription_skipped_periods.reason:
 * - `renewals-late`: our renewals did not run in time (workers down) — the shop's doing;
 * - `plan-paused`: the plan was paused (its payment failed, or staff paused it) until it was resumed;
 * - `staff-skip`: staff skipped the delivery on the customer's behalf (the back office's "skip next");
 * - `shopper-skip`: the shopper skipped it on My Subscriptions.
 */
export const SKIPPED_PERIOD_REASONS = ['renewals-late', 'plan-paused', 'staff-skip', 'shopper-skip'] as const;
export type SkippedPeriodReason = (typeof SKIPPED_PERIOD_REASONS)[number];

export const skippedPeriodSchema = z.object({
  /** yyyy-MM-dd (UTC) of the skipped billing date, as payment_transactions.billing_period. */
  period: z.string(),
  reason: z.enum(SKIPPED_PERIOD_REASONS),
});
export type SkippedPeriod = z.infer<typeof skippedPeriodSchema>;

/** The reason in words: to the shopper (My Subscriptions) and to staff (admin order detail). */
const SKIPPED_REASON_WORDS: Record<'shopper' | 'staff', Record<SkippedPeriodReason, string>> = {
  shopper: { 'renewals-late': 'our renewals were paused', 'plan-paused': 'your plan was paused', 'staff-skip': 'skipped at your request', 'shopper-skip': 'you skipped it' },
  staff: {
    'renewals-late': 'renewals did not run on time',
    'plan-paused': 'the plan was paused',
    'staff-skip': 'skipped by staff for the customer',
    'shopper-skip': 'skipped by the customer',
  },
};

/**
 * "Skipped: October 1, 2026 — not charged (our renewals were paused)" for the shopper, "Skipped: Oct 1,
 * 2026 — not charged (renewals did not run on time)" for staff. A period is a UTC calendar day, so it
 * is shown as that day whatever the reader's time zone.
 */
export function describeSkippedPeriod({ period, reason }: SkippedPeriod, audience: 'shopper' | 'staff'): string {
  const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: audience === 'shopper' ? 'long' : 'short', day: 'numeric', year: 'numeric' });
  const date = new Date(`${period}T00:00:00.000Z`);
  const when = Number.isNaN(date.getTime()) ? period : day.format(date);
  return `Skipped: ${when} — not charged (${SKIPPED_REASON_WORDS[audience][reason] ?? reason})`;
}

/** One line of a subscription as the page shows it. */
export const subscriptionItemSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  variantSku: z.string().nullable(),
  quantity: z.number().int(),
  /** Unit price before the plan's discount, two decimals. */
  price: z.string(),
});

/** GET /api/subscriptions answers an array of these (spec §3 "Subscription (page view)", plus a few fields the page uses). */
export const subscriptionViewSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  createdAt: z.string(),
  items: z.array(subscriptionItemSchema),
  /** What each billing period charges (discounted subtotal, free shipping, tax), two decimals. */
  amount: z.string(),
  discountPercent: z.number().int(),
  interval: z.enum(SUBSCRIPTION_INTERVALS),
  intervalCount: z.number().int(),
  /** ISO timestamp of the next charge (meaningful while active). */
  nextBillingDate: z.string(),
  cancelledAt: z.string().nullable(),
  /** Card brand and last four of the stored card, when known. */
  cardType: z.string().nullable(),
  cardLastFour: z.string().nullable(),
  /** Billing periods passed over without a charge (a late renewal catches up once), oldest first. */
  skippedPeriods: z.array(skippedPeriodSchema),
  /** The days (yyyy-mm-dd, UTC) the next delivery may move to now; null when it cannot move (not active, payment being retried). */
  rescheduleWindow: z.object({ earliest: z.string(), latest: z.string() }).nullable(),
  /** A paused plan the shopper may resume on its saved card (paused with its payments in order); otherwise a new card is needed. */
  resumableOnSavedCard: z.boolean(),
  /** The next delivery's payment is being checked (held for review, or its answer lost): it stands, whatever the shopper changes. */
  chargeBeingChecked: z.boolean(),
  /** An active plan whose renewal payment failed and is being retried (dunning): its date, cadence and Ship Now wait. */
  paymentRetrying: z.boolean(),
  /** Where the next deliveries ship (null on a plan made without one). */
  shippingAddress: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }).nullable(),
  /** yyyy-mm-dd: a plan paused for a number of deliveries resumes that day on its saved card; null otherwise. */
  resumesOn: z.string().nullable(),
  /** Who paused a paused plan (null unless paused). */
  pausedBy: pausedBySchema.nullable(),
  /** A longer or shorter cadence the shopper's own history suggests (GET /api/subscriptions only; null otherwise). */
  cadenceSuggestion: cadenceSuggestionSchema.nullable(),
  /**
   * Issue 21 (./ship-now-add-ons.ts): the one-time add-ons riding with the next delivery only; the latest
   * Ship Now (asked within the last day) and how its charge stands (null: none); what the next delivery
   * charges with its add-ons at today's prices (priceRenewal), two decimals, which Ship Now's confirmation says.
   */
  oneTimeItems: z.array(oneTimeItemSchema),
  shipNow: shipNowStatusSchema,
  nextDeliveryAmount: z.string(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

/** POST /api/payments/subscribe-nonce answer: the plan, the first delivery's order, the next charge. */
export const subscribeNonceResponseSchema = z.object({
  subscriptionId: z.string().uuid(),
  orderId: z.string().uuid(),
  nextBillingDate: z.string(),
});
export type SubscribeNonceResponse = z.infer<typeof subscribeNonceResponseSchema>;

/**
 * POST /api/subscriptions/{id}/resume: a paused plan (its renewal could not be paid) gets a new card,
 * tokenised in the browser exactly as at checkout (Accept.js opaque data; the card never reaches us).
 * The server stores the card with the provider, makes the plan active again and charges the unpaid
 * delivery at once; the answer is the updated plan (subscriptionViewSchema).
 */
export const resumeSubscriptionRequestSchema = z.object(opaqueDataFields);
export type ResumeSubscriptionRequest = z.infer<typeof resumeSubscriptionRequestSchema>;

// ---------------------------------------------------------------- shoppers change their plans

const utcDay = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), message);

/**
 * POST /api/subscriptions/{id}/skip: `period` is the delivery the page showed (the yyyy-mm-dd of its
 * billing date, UTC). A double click skips it once: the second call finds it skipped and answers the plan.
 */
export const skipDeliveryRequestSchema = z.object({ period: utcDay(SUBSCRIPTION_MESSAGES.period) });
export type SkipDeliveryRequest = z.infer<typeof skipDeliveryRequestSchema>;

/** POST /api/subscriptions/{id}/reschedule: the new day of the next delivery (UTC), within `rescheduleWindow`. */
export const rescheduleDeliveryRequestSchema = z.object({ nextBillingDate: utcDay(SUBSCRIPTION_MESSAGES.nextBillingDate) });
export type RescheduleDeliveryRequest = z.infer<typeof rescheduleDeliveryRequestSchema>;

/** POST /api/subscriptions/{id}/card: a new card for an active plan, tokenised in the browser as at checkout. */
export const changeCardRequestSchema = z.object(opaqueDataFields);
export type ChangeCardRequest = z.infer<typeof changeCardRequestSchema>;

/** POST /api/subscriptions/{id}/frequency: deliver every `intervalCount` months (one of GET /api/subscriptions/cadences). */
export const intervalCountField = z
  .number({ error: SUBSCRIPTION_MESSAGES.intervalCount })
  .int(SUBSCRIPTION_MESSAGES.intervalCount)
  .positive(SUBSCRIPTION_MESSAGES.intervalCount)
  .max(120, SUBSCRIPTION_MESSAGES.intervalCount);
export const changeFrequencyRequestSchema = z.object({ intervalCount: intervalCountField });
export type ChangeFrequencyRequest = z.infer<typeof changeFrequencyRequestSchema>;

/**
 * PUT /api/subscriptions/{id}/address (and staff's, with a reason): where the next deliveries ship, checked
 * exactly as checkout checks the shipping address (the same schema, so the same messages).
 */
export const changeAddressRequestSchema = addressSchema;
export type ChangeAddressRequest = z.infer<typeof changeAddressRequestSchema>;

/** One plan line's identity (a product, and its size when it has sizes): how a change's lines meet the plan's. */
export const planLineKey = (line: { productId: number; variantSku: string | null }): string => `${line.productId}:${line.variantSku ?? ''}`;

/**
 * PUT /api/subscriptions/{id}/items: the quantity of each of the plan's lines (0 removes it; at least one
 * stays), plus any product (and size: `variantSku`, required when the product has sizes) to add, from 1
 * to PLAN_ITEM_MAX_QUANTITY, up to PLAN_MAX_LINES lines in all. No prices: the server prices every line
 * from the catalogue; any other field is ignored.
 */
export const changeItemsRequestSchema = z.object({
  items: z
    .array(
      z.object({
        productId: idField(SUBSCRIPTION_MESSAGES.items),
        variantSku: textField({ max: 100, required: SUBSCRIPTION_MESSAGES.items, tooLong: SUBSCRIPTION_MESSAGES.items }).nullable(),
        quantity: z
          .number({ error: SUBSCRIPTION_MESSAGES.itemQuantity })
          .int(SUBSCRIPTION_MESSAGES.itemQuantity)
          .min(0, SUBSCRIPTION_MESSAGES.itemQuantity)
          .max(PLAN_ITEM_MAX_QUANTITY, SUBSCRIPTION_MESSAGES.itemQuantity),
      }),
      { error: SUBSCRIPTION_MESSAGES.items },
    )
    .min(1, SUBSCRIPTION_MESSAGES.items)
    .max(50, SUBSCRIPTION_MESSAGES.items),
});
export type ChangeItemsRequest = z.infer<typeof changeItemsRequestSchema>;

/**
 * What a shopper changed, as the confirmation email tells it (the outbox payload of
 * `subscription.changed`, written in the change's transaction): dates are ISO timestamps, amounts cents.
 */
export const shopperPlanChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('skipped'), period: z.string() }),
  z.object({ kind: z.literal('rescheduled'), from: z.string() }),
  /** `resumesOn` (yyyy-mm-dd): paused for a number of deliveries (older rows have none: until resumed). */
  z.object({ kind: z.literal('paused'), resumesOn: z.string().optional() }),
  /** `automatic`: a timed pause ended (the renewals resumed it). */
  z.object({ kind: z.literal('resumed'), skippedWhilePaused: z.number().int(), automatic: z.boolean().optional() }),
  z.object({ kind: z.literal('frequency'), fromIntervalCount: z.number().int(), intervalCount: z.number().int() }),
  z.object({ kind: z.literal('card'), cardType: z.string().nullable(), cardLastFour: z.string().nullable() }),
  z.object({ kind: z.literal('address'), address: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }) }),
  z.object({
    kind: z.literal('items'),
    fromAmount: z.number().int(),
    /** The lines the change added to the plan, as the plan now names them (older rows have none). */
    added: z.array(z.object({ productName: z.string(), quantity: z.number().int() })).optional(),
  }),
  /** Ship now (issue 21): `period` is the delivery charged today; the payload's nextBillingDate is the date after it. */
  z.object({ kind: z.literal('ship-now'), period: z.string() }),
  z.object({ kind: z.literal('one-time-added'), productName: z.string(), quantity: z.number().int() }),
  z.object({ kind: z.literal('one-time-removed'), productName: z.string(), quantity: z.number().int() }),
  /** Issue 22: the save offer of a discount on the next delivery, accepted in the cancel dialog. */
  z.object({ kind: z.literal('discount'), percent: z.number().int() }),
]);
export type ShopperPlanChange = z.infer<typeof shopperPlanChangeSchema>;
