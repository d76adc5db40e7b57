/**
 * My Subscriptions (spec §2, §3): the signed-in user's plans as the page shows them, and cancelling one.
 * Starting a plan is the checkout's write path with a plan attached (checkout/requests.ts).
 */
import { billingPeriodOf, SUBSCRIPTION_MESSAGES, type PausedBy, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { suggestCadence } from '@nh/shared/subscriptions/cadence-suggestion';
import { recordPlanChange, recordSuggestionShown } from '@nh/server/queries/subscriptions/plan-history';
import { centsToDecimal, toCents } from '@nh/shared/money';
import { priceRenewal } from '@nh/shared/pricing';
import type { TaxCalculator } from '@nh/server/tax';
import { priceRenewalWithTax, type RenewalToPrice } from '@nh/server/tax/renewal';
import { chargeableAmount } from '@nh/shared/subscriptions/agreed-price';
import type { ShipNowStatus } from '@nh/shared/contracts/ship-now-add-ons';
import type { ShipNowRow } from '@nh/server/queries/subscriptions/ship-now';
import type { Db } from '@nh/server/db/client';
import { changeLockedPlan } from '@nh/server/queries/subscriptions/changes';
import { findSubscriptionView, listSubscriptions, type SubscriptionViewRow } from '@nh/server/queries/subscriptions/shopper';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { decideCancel, hasEnded, movableWindow, resumableOnSavedCard } from './plan-rules';
import { recordCancellation } from '@nh/server/queries/subscriptions/cancellations';
import type { CancelSubscriptionRequest } from '@nh/shared/contracts/cancellation';
import { checkedBy, type ChangeSource } from './change-source';

/** How the latest ship-now's charge stands, from its period's payment row (none yet: charging). */
function shipNowStatus(row: ShipNowRow | null): ShipNowStatus {
  if (!row) return null;
  const state =
    row.paymentStatus === 'approved' || row.paymentStatus === 'refunded'
      ? 'charged'
      : row.paymentStatus === 'declined' || row.paymentStatus === 'error'
        ? 'failed'
        : row.paymentStatus === 'pending' && row.paymentAnswered
          ? 'being-checked'
          : 'charging';
  return { period: row.period, requestedAt: new Date(row.requestedAt).toISOString(), state };
}

/**
 * The next delivery as the renewal prices it: the plan's lines, its add-ons at today's prices, held to the
 * price in force for the delivery's day (consent on record: a rise not notified in time is held back), for
 * the plan's address.
 */
function nextRenewalOf(row: SubscriptionViewRow): RenewalToPrice {
  const cents = (v: string | null) => (v === null ? null : toCents(v));
  const agreed = chargeableAmount(
    { amount: toCents(row.amount), agreedAmount: cents(row.agreed_amount), agreedAmountFrom: row.agreed_amount_from, priorAgreedAmount: cents(row.prior_agreed_amount) },
    billingPeriodOf(row.next_billing_date),
  );
  const addOns = row.one_time_items.filter((o) => o.priceToday !== null).map((o) => ({ productId: o.productId, price: o.priceToday!, quantity: o.quantity }));
  return { items: row.items, addOns, agreed, shippingAddress: row.shipping_address };
}

/**
 * The next delivery's charge with its add-ons at today's prices under the flat rule (priceRenewal): the
 * answers of changes (the page reloads the list, which has the figure with the destination's tax).
 */
function nextDeliveryAmount(row: SubscriptionViewRow): string {
  const next = nextRenewalOf(row);
  const lines = (l: { price: string; quantity: number }) => ({ price: toCents(l.price), quantity: l.quantity });
  return centsToDecimal(priceRenewal(next.items.map(lines), next.agreed, (next.addOns ?? []).map(lines)).total);
}

/** The same with today's tax for the plan's address (issue 25): the renewal's one computation (@nh/server priceRenewalWithTax). */
async function nextDeliveryAmountWithTax(tax: TaxCalculator, row: SubscriptionViewRow): Promise<string> {
  return centsToDecimal((await priceRenewalWithTax(tax, nextRenewalOf(row))).total);
}


/** Who paused a paused plan: its renewals (a payment failed), staff (with their reason), else its shopper. */
function pausedByOf(row: SubscriptionViewRow): PausedBy | null {
  if (row.status !== 'paused') return null;
  if (row.failed_attempts > 0) return { by: 'payment', reason: null };
  return row.paused_by === 'staff' ? { by: 'shop', reason: row.pause_reason } : { by: 'shopper', reason: null };
}

/**
 * The cadence the plan's history suggests (shared suggestCadence), for an active plan not in dunning;
 * null without `offered` (the answers of changes: the page reloads the list, which has it).
 */
function suggestionOf(row: SubscriptionViewRow, offered: readonly number[] | undefined): SubscriptionView['cadenceSuggestion'] {
  if (!offered || row.status !== 'active' || row.failed_attempts > 0 || row.interval !== 'monthly') return null;
  return suggestCadence({ periods: row.cadence_periods, currentMonths: row.interval_count, offeredMonths: offered, dismissedPeriod: row.cadence_dismissed_period, cadenceChangedOn: row.cadence_changed_on });
}

export function toView(row: SubscriptionViewRow, offered?: readonly number[]): SubscriptionView {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    items: row.items.map((i) => ({ productId: i.productId, productName: i.productName, variantSku: i.variantSku ?? null, quantity: i.quantity, price: i.price })),
    amount: row.amount,
    discountPercent: row.discount_percent,
    interval: row.interval,
    intervalCount: row.interval_count,
    nextBillingDate: row.next_billing_date.toISOString(),
    cancelledAt: row.cancelled_at?.toISOString() ?? null,
    cardType: row.card_type,
    cardLastFour: row.card_last_four,
    skippedPeriods: row.skipped_periods,
    rescheduleWindow: movableWindow(
      { status: row.status, failedAttempts: row.failed_attempts, nextBillingDate: row.next_billing_date, interval: row.interval, intervalCount: row.interval_count },
      new Date(`${row.today}T00:00:00.000Z`),
    ),
    resumableOnSavedCard: resumableOnSavedCard({ status: row.status, failedAttempts: row.failed_attempts }, row.has_stored_card),
    chargeBeingChecked: !hasEnded(row) && row.period_charge_unsettled,
    paymentRetrying: row.status === 'active' && row.failed_attempts > 0,
    shippingAddress: row.shipping_address,
    resumesOn: row.status === 'paused' ? row.resumes_on : null,
    pausedBy: pausedByOf(row),
    cadenceSuggestion: suggestionOf(row, offered),
    oneTimeItems: row.one_time_items,
    shipNow: shipNowStatus(row.ship_now),
    nextDeliveryAmount: nextDeliveryAmount(row),
  };
}

/**
 * The user's plans as the page shows them, with any cadence suggestion (cadences `offered`: PLAN_CADENCE_MONTHS)
 * and the next delivery's charge with today's tax for each plan's address (`tax`, issue 25).
 * Each suggestion shown is recorded once per plan and billing period (the dashboard counts them).
 */
export async function subscriptionsOf(db: Db, userId: string, offered: readonly number[], tax: TaxCalculator): Promise<SubscriptionView[]> {
  const rows = await listSubscriptions(db.$client, userId);
  const views = await Promise.all(rows.map(async (row) => ({ ...toView(row, offered), nextDeliveryAmount: await nextDeliveryAmountWithTax(tax, row) })));
  await Promise.all(
    views.flatMap((v) => (v.cadenceSuggestion ? [recordSuggestionShown(db, v.id, billingPeriodOf(new Date(v.nextBillingDate)), v.cadenceSuggestion.intervalCount)] : [])),
  );
  return views;
}

/**
 * Cancels the user's own active or paused plan; any other id (malformed, unknown, someone else's) is not
 * found. The plan's change sequence (@nh/server changeLockedPlan: the row locked as a renewal locks it,
 * then judged as it then is): refused while the period's charge is under way (plan-rules decideCancel),
 * as pausing, skipping and moving are. No email, as before; recorded in the plan's history (the staff plan page shows it)
 * with the optional reason and comment (issue 22), also kept in subscription_cancellations for the report.
 */
export async function cancel(db: Db, userId: string, id: string, input: CancelSubscriptionRequest = {}, source?: ChangeSource): Promise<SubscriptionView> {
  const reason = input.reason ?? null;
  const comment = input.comment || null;
  if (!isUuid(id)) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const found = await changeLockedPlan(
      tx,
      id,
      userId,
      checkedBy(source, (plan) => ({ change: decideCancel(plan, SUBSCRIPTION_MESSAGES), from: plan.row.status })),
      async (decision) => {
        await source?.spend(tx);
        await recordPlanChange(tx, id, 'customer', {
          kind: 'cancelled',
          before: { status: decision.from },
          after: { status: 'cancelled', ...(reason ? { reason } : {}), ...(comment ? { comment } : {}) },
          via: source?.via ?? null,
        });
        await recordCancellation(tx, id, 'customer', reason, comment);
      },
    );
    if (!found) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.notFound);
  });
  return viewOf(db.$client, id, userId);
}

/** The user's plan as the page shows it (after a change); not found when it is not theirs. */
export async function viewOf(pool: Db['$client'], id: string, userId: string): Promise<SubscriptionView> {
  const row = await findSubscriptionView(pool, id, userId);
  if (!row) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.notFound);
  return toView(row);
}
