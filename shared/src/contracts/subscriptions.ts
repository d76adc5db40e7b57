/**
 * Subscribe & Save (operations spec §2 "My Subscriptions", §3 "Subscription (page view)", §7, §8):
 * POST /api/payments/subscribe-nonce (its request schema lives with checkout), GET /api/subscriptions,
 * POST /api/subscriptions/{id}/cancel. One place for the plan's rules and the messages both sides show.
 */
import { z } from 'zod';
import { SUBSCRIBE_AND_SAVE_PERCENT } from '../constants';
import { CHECKOUT_MESSAGES, opaqueDataFields } from './checkout';

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_INTERVALS = ['monthly', 'quarterly', 'biannual', 'annual'] as const;
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVALS)[number];

/** Months per interval. The storefront only offers monthly (spec §7: interval 'monthly'). */
export const INTERVAL_MONTHS: Record<SubscriptionInterval, number> = { monthly: 1, quarterly: 3, biannual: 6, annual: 12 };

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
} as const;

/**
 * A renewal that runs more than one period late charges once, for the current period (the latest
 * billing date on or before today, UTC), and records each period it passed over as skipped: no
 * charge, no delivery. Why, as stored in subscription_skipped_periods.reason:
 * - `renewals-late`: our renewals did not run in time (workers down) — the shop's doing;
 * - `plan-paused`: the plan was paused (its payment failed, or staff paused it) until it was resumed;
 * - `staff-skip`: staff skipped the delivery on the customer's behalf (the back office's "skip next").
 */
export const SKIPPED_PERIOD_REASONS = ['renewals-late', 'plan-paused', 'staff-skip'] as const;
export type SkippedPeriodReason = (typeof SKIPPED_PERIOD_REASONS)[number];

export const skippedPeriodSchema = z.object({
  /** yyyy-MM-dd (UTC) of the skipped billing date, as payment_transactions.billing_period. */
  period: z.string(),
  reason: z.enum(SKIPPED_PERIOD_REASONS),
});
export type SkippedPeriod = z.infer<typeof skippedPeriodSchema>;

/** The reason in words: to the shopper (My Subscriptions) and to staff (admin order detail). */
const SKIPPED_REASON_WORDS: Record<'shopper' | 'staff', Record<SkippedPeriodReason, string>> = {
  shopper: { 'renewals-late': 'our renewals were paused', 'plan-paused': 'your plan was paused', 'staff-skip': 'skipped at your request' },
  staff: { 'renewals-late': 'renewals did not run on time', 'plan-paused': 'the plan was paused', 'staff-skip': 'skipped by staff for the customer' },
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
