/**
 * One renewal: charge one subscription for one billing period, at most once.
 *
 * (a) One transaction, the subscription row locked: is it still active, due, and on this period? The
 *     period's payment row decides whether a charge may happen at all (approved: only the bookkeeping
 *     is finished; pending: an earlier charge's outcome is unknown, so staff decide). Otherwise the
 *     pending renewal order takes its stock (never overselling) and the payment row is written as
 *     pending — all before any money moves. A plan more than one period behind (renewals that did not
 *     run, a plan paused for long) is charged once, for the current period: the periods before it are
 *     recorded as skipped and never billed (rules.ts catchUp).
 * (b) The charge, outside any transaction: the stored customer payment profile (CIM).
 * (c) One statement records the outcome (@nh/server queries/payments.ts). A decline is one dunning step.
 */
import { z } from 'zod';
import { GATEWAY_MESSAGES, failedCharge, planBillTo, subscriptionInvoiceNumber, type ChargeResult, type PaymentGateway } from '@nh/server/payments';
import { jobId } from '@nh/server/jobs/contract';
import { renewalsTotal } from '@nh/server/observability/metrics';
import { centsToDecimal, STORE_CODE, SHOP, type Cents } from '@nh/shared';
import { flatTax, type TaxCalculator } from '@nh/server/tax';
import { priceRenewalWithTax } from '@nh/server/tax/renewal';
import { chargeableAmount } from '@nh/shared/subscriptions/agreed-price';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { billingPeriodOf, nextBillingDate, type SkippedPeriodReason, type SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import type { LineItem } from '@nh/server/db/schema';
import type { Logger } from '@nh/server/observability/logger';
import { findPeriodPayment, recordFailed, recordPaid, recordUnsettled, upsertPeriodPayment, type ChargeRecord } from '@nh/server/queries/subscriptions/renewal-payments';
import type { StockLine, StockShortfall } from '@nh/server/queries/stock';
import {
  advanceSubscription,
  lockSubscription,
  placeRenewalOrder,
  recordFailedAttempt,
  skipPeriods,
  type LockedSubscription,
} from '@nh/server/queries/subscriptions/renewals';
import { inPoolTransaction } from '@nh/server/queries/transaction';
import { spendCreditOnOrder } from '@nh/server/queries/store-credit';
import { addOnLines, readAddOnProducts } from '@nh/server/queries/subscriptions/ship-now';
import { catchUp, dunningStep, pauseNow } from './rules';
import { defineJob } from '../jobs/define';

export type RenewResult =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'already-paid' }
  | { outcome: 'approved'; orderId: string; transactionId: string | null }
  /** Nothing was charged (no card, nothing to ship, out of stock): a failed attempt all the same. */
  | { outcome: 'not-charged'; reason: string; status: SubscriptionStatus }
  | { outcome: 'declined' | 'error'; orderId: string; reason: string; status: SubscriptionStatus | null }
  /** Held for review or unknown: left pending for staff. */
  | { outcome: 'unsettled'; orderId: string; reason: string };

export const RENEWAL_MESSAGES = {
  noCard: 'There is no saved card for this subscription.',
  noAddress: 'There is no shipping address for this subscription.',
  noItems: 'This subscription has no items.',
  notConfigured: 'card payments are not configured',
  unknownOutcome: 'an earlier charge for this period has an unknown outcome; staff must check it with the payment provider before anything else happens',
} as const;

/** Stock lines of an order: one per product, quantities added up (two variants share a product's stock). */
export function stockLines(items: LineItem[]): StockLine[] {
  const byProduct = new Map<number, number>();
  for (const line of items) byProduct.set(line.productId, (byProduct.get(line.productId) ?? 0) + line.quantity);
  return [...byProduct].map(([productId, quantity]) => ({ productId, quantity }));
}

function shortfallReason(short: StockShortfall[]): string {
  const parts = short.map((s) => {
    const name = s.name ?? `Product ${s.productId}`;
    return s.active ? `${name} is out of stock (${s.wanted} needed, ${s.available} left)` : `${name} is no longer available`;
  });
  return `${parts.join('; ')}.`;
}

type Prepared =
  | { kind: 'settled'; result: RenewResult }
  /**
   * `period`: the one charged, the job's own or, after a catch-up, the current one. `amount`: what is
   * charged, the pending order's total (one computation, priceRenewal).
   */
  | { kind: 'charge'; sub: LockedSubscription; period: string; paymentId: string; orderId: string; stock: StockLine[]; invoiceNumber: string; amount: Cents; shippedOneTimeIds: string[] };

/** A database write that records money already moved: retried a few times before giving up to staff. */
async function persist<T>(write: () => Promise<T>, log: Logger, what: Record<string, unknown>): Promise<T> {
  const delays = [500, 2000, 5000];
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= delays.length) {
        log.error({ ...what, err: (error as Error).message }, 'renewal charged but its outcome could not be recorded; the payment row stays pending for staff');
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

/**
 * `skipReason`: what a catch-up records for the periods it passes over — `plan-paused` for the renewal
 * of a plan resumed with a new card, `renewals-late` for the sweep's.
 */
export async function renewSubscription(
  { db, gateway, log, tax = flatTax() }: { db: Db; gateway: PaymentGateway | null; log: Logger; /** The destination's tax (ctx.tax); the spec's flat rule when none is given. */ tax?: TaxCalculator },
  subscriptionId: string,
  jobPeriod: string,
  skipReason: SkippedPeriodReason = 'renewals-late',
): Promise<RenewResult> {
  if (!gateway) {
    log.error({ subscriptionId, period: jobPeriod }, `renewal not attempted: ${RENEWAL_MESSAGES.notConfigured}`);
    return { outcome: 'skipped', reason: RENEWAL_MESSAGES.notConfigured };
  }

  const prepared = await prepare(db, gateway, tax, subscriptionId, jobPeriod, skipReason, log);
  if (prepared.kind === 'settled') return prepared.result;
  const { sub, period, paymentId, orderId, stock, invoiceNumber, amount, shippedOneTimeIds } = prepared;

  let result: ChargeResult;
  try {
    // Store credit paid all of it (issue 23): nothing to ask of the card.
    if (amount === 0) result = paidByCredit(gateway);
    else result = await gateway.chargeProfile({
      profile: sub.profile!,
      amount,
      invoiceNumber,
      description: `${SHOP.name} Subscribe & Save renewal ${period}`,
      email: sub.customerEmail,
      billTo: planBillTo(sub.customerName, sub.shippingAddress!),
    });
  } catch (error) {
    // The request may have reached the gateway: an unknown outcome, never a reason to charge again.
    result = failedCharge(gateway.environment, 'unknown', GATEWAY_MESSAGES.unknown, (error as Error).message);
  }

  const record: ChargeRecord = { paymentId, orderId, subscriptionId, period, result };
  const what = { subscriptionId, period, orderId, paymentId, outcome: result.outcome, transactionId: result.transactionId };
  if (result.outcome === 'approved') {
    await persist(() => recordPaid(db.$client, record, nextBillingDate(sub.nextBillingDate, sub.interval, sub.intervalCount), shippedOneTimeIds), log, what);
    log.info(what, 'renewal charged');
    return { outcome: 'approved', orderId, transactionId: result.transactionId };
  }
  // Error 11 (duplicate) says a charge with this invoice already went through: not a failure to retry.
  if ((result.outcome === 'declined' || result.outcome === 'error') && !result.duplicate) {
    const status = await persist(() => recordFailed(db.$client, record, stock, dunningStep(sub.failedAttempts)), log, what);
    log.warn({ ...what, reason: result.message, errorCode: result.errorCode, status }, 'renewal not paid');
    return { outcome: result.outcome, orderId, reason: result.message, status };
  }
  await persist(() => recordUnsettled(db.$client, record), log, what);
  log.error({ ...what, reason: result.message, errorCode: result.errorCode }, 'renewal charge outcome is not final; payment row left pending for staff');
  return { outcome: 'unsettled', orderId, reason: result.message };
}

async function prepare(db: Db, gateway: PaymentGateway, tax: TaxCalculator, subscriptionId: string, jobPeriod: string, skipReason: SkippedPeriodReason, log: Logger): Promise<Prepared> {
  const settled = (result: RenewResult): Prepared => ({ kind: 'settled', result });
  return inPoolTransaction(db, async (client): Promise<Prepared> => {
    let sub = await lockSubscription(client, subscriptionId);
    if (!sub) return settled({ outcome: 'skipped', reason: 'subscription not found' });
    if (sub.status !== 'active') return settled({ outcome: 'skipped', reason: `subscription is ${sub.status}` });
    if (billingPeriodOf(sub.nextBillingDate) !== jobPeriod) return settled({ outcome: 'skipped', reason: 'this period is settled; the subscription moved on' });
    if (!sub.due) return settled({ outcome: 'skipped', reason: 'not due yet' });

    const existing = await findPeriodPayment(client, subscriptionId, jobPeriod);
    if (existing?.status === 'approved' || existing?.status === 'refunded') {
      // Paid already (the outcome was recorded but the subscription not moved on): finish the bookkeeping only.
      await advanceSubscription(client, subscriptionId, nextBillingDate(sub.nextBillingDate, sub.interval, sub.intervalCount), jobPeriod);
      return settled({ outcome: 'already-paid' });
    }
    if (existing?.status === 'pending') {
      log.error({ subscriptionId, period: jobPeriod, paymentId: existing.id }, `renewal not attempted: ${RENEWAL_MESSAGES.unknownOutcome}`);
      return settled({ outcome: 'skipped', reason: RENEWAL_MESSAGES.unknownOutcome });
    }

    // More than one period behind: one charge, for the current period; the ones before it are skipped.
    // (Only after the checks above: a period whose charge may have gone through is never passed over.)
    const { current, skipped } = catchUp(sub.nextBillingDate, sub.dueBefore, sub.interval, sub.intervalCount);
    if (skipped.length > 0) {
      const periods = skipped.map(billingPeriodOf);
      await skipPeriods(client, subscriptionId, periods, skipReason, current);
      sub = { ...sub, nextBillingDate: current, failedAttempts: 0 };
      log.warn({ subscriptionId, skipped: periods, period: billingPeriodOf(current), reason: skipReason }, 'renewal more than one period late: earlier periods skipped, the current one charged');
    }
    const period = billingPeriodOf(sub.nextBillingDate);

    const invoiceNumber = subscriptionInvoiceNumber(subscriptionId, period);
    const base = { subscriptionId, period, invoiceNumber, amount: sub.amount, environment: gateway.environment };
    const notCharged = async (reason: string, step: ReturnType<typeof dunningStep>) => {
      await upsertPeriodPayment(client, { ...base, orderId: null, status: 'error', message: reason });
      const status = await recordFailedAttempt(client, subscriptionId, period, step);
      log.warn({ subscriptionId, period, reason, status }, 'renewal not charged');
      return settled({ outcome: 'not-charged', reason, status });
    };
    // Nothing a retry could fix: paused at once, and the customer told.
    const missing = !sub.profile ? RENEWAL_MESSAGES.noCard : !sub.shippingAddress ? RENEWAL_MESSAGES.noAddress : sub.items.length === 0 ? RENEWAL_MESSAGES.noItems : null;
    if (missing) return notCharged(missing, pauseNow(sub.failedAttempts));

    // One figure for the order and the charge: the plan's lines at their stored prices, held to its
    // agreed amount (a lower price today is passed on; shared/pricing.ts priceRenewal).
    // One-time add-ons ride with this delivery, priced from today's catalogue (issue 21).
    const addOns = addOnLines(sub.oneTimeItems, await readAddOnProducts(client, [...new Set(sub.oneTimeItems.map((o) => o.productId))]));
    if (addOns.unavailable) return notCharged(addOns.unavailable, dunningStep(sub.failedAttempts));
    // A save offer's discount accepted when cancelling (issue 22): this delivery only; recordPaid clears it.
    // Consent on record (issue 22): a rise charged only from a billing day a notice was sent in time for
    // (shared/subscriptions/agreed-price.ts); before it, the price last agreed (the shop absorbs the rest).
    const agreed = chargeableAmount(sub, period);
    if (agreed < sub.amount) log.info({ subscriptionId, amount: sub.amount, agreed }, 'renewal held to the price last agreed or notified in time');
    // The plan keeps its pre-tax price; the tax is worked out again for its address at today's rates
    // (issue 25, @nh/server tax/renewal.ts). A provider is asked under the plan's lock: it answers within
    // TAX_PROVIDER_TIMEOUT_MS or the table does, and no money has moved yet.
    const pricing = await priceRenewalWithTax(tax, {
      items: sub.items,
      addOns: addOns.lines,
      agreed,
      nextDeliveryDiscountPercent: sub.nextDeliveryDiscountPercent,
      shippingAddress: sub.shippingAddress,
    });
    if (pricing.priceLock > 0) log.info({ subscriptionId, agreed: sub.amount, priceLock: pricing.priceLock }, "renewal held to the plan's agreed amount (its lines cost more today)");
    else if (pricing.total < sub.amount) log.info({ subscriptionId, agreed: sub.amount, charged: pricing.total }, "renewal charged its lines' lower price today, below the plan's agreed amount");
    // Each line keeps its own tax (refunds give it back, NetSuite gets it line by line).
    const items = [...sub.items, ...addOns.lines].map((line, i) => ({ ...line, tax: centsToDecimal(pricing.lineTaxes[i]!) }));
    const stock = stockLines(items);
    const order = {
      storeCode: STORE_CODE,
      userId: sub.userId,
      customerEmail: sub.customerEmail,
      customerName: sub.customerName,
      shippingAddress: sub.shippingAddress!,
      items,
      subtotal: pricing.subtotal,
      discount: pricing.discount,
      subscribeDiscount: pricing.subscribeDiscount,
      promoDiscount: pricing.promoDiscount,
      shipping: pricing.shipping,
      tax: pricing.tax,
      shippingTax: pricing.shippingTax,
      taxSource: pricing.taxSource,
      total: pricing.total,
      subscriptionId,
    };
    const placed = await placeRenewalOrder(client, order, stock);
    if ('short' in placed) return notCharged(shortfallReason(placed.short), dunningStep(sub.failedAttempts));
    const { orderId } = placed;
    // Store credit before the card (issue 23), spent in this transaction: a job killed before its commit
    // spent nothing, and after it the period's pending payment row stops any second charge. A decline
    // cancels the order, which gives the credit back (the orders trigger).
    const credit = sub.userId ? await spendCreditOnOrder(client, { userId: sub.userId, orderId, subscriptionId, max: pricing.total }) : 0;
    const toCharge = pricing.total - credit;
    if (credit > 0) log.info({ subscriptionId, period, credit, toCharge }, 'renewal paid partly or wholly with store credit');
    const paymentId = await upsertPeriodPayment(client, { ...base, amount: toCharge, orderId, status: 'pending', message: null });
    if (!paymentId) throw new Error(`payment row of ${subscriptionId} ${period} changed while the subscription was locked`);
    return { kind: 'charge', sub, period, paymentId, orderId, stock, invoiceNumber, amount: toCharge, shippedOneTimeIds: sub.oneTimeItems.map((o) => o.id) };
  });
}

/** A renewal whose store credit paid it all: approved without a card charge. */
const paidByCredit = (gateway: PaymentGateway): ChargeResult => ({
  outcome: 'approved',
  responseCode: null,
  message: 'Paid in full with store credit',
  errorCode: null,
  transactionId: null,
  cardType: null,
  lastFour: null,
  duplicate: false,
  profile: null,
  environment: gateway.environment,
});

const PERIOD = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** renew-subscription (renewals queue): one plan, one billing period, at most one charge. */
export const renewSubscriptionJob = defineJob({
  name: 'renew-subscription',
  queue: 'renewals',
  /**
   * `period`: the billing period being paid, yyyy-MM-dd (UTC) of the subscription's due date. Added by
   * the daily sweep (`jobId` below) and, at once, for a plan resumed with a new card (the relay, from
   * the `subscription.resumed` outbox row: an outbox job id, so the two never share an id). `resumed`
   * marks the latter: periods a late renewal skips were missed because the plan was paused.
   */
  payload: z.object({ subscriptionId: z.string().uuid(), period: PERIOD, resumed: z.boolean().optional() }),
  // A renew job that fails before its charge rolled back and may run again; after the charge its
  // payment row is pending, so a rerun only reports it for staff and never charges again.
  options: (config) => ({ attempts: config.RENEWAL_JOB_ATTEMPTS, backoff: { type: 'exponential', delay: config.RENEWAL_JOB_BACKOFF_MS } }),
  // A plan resumed with a new card is charged for its unpaid period now, not at the next daily sweep.
  // The renew job re-checks status, due date and period on the locked row, so a stale one charges nothing.
  topics: {
    [OUTBOX_TOPICS.subscriptionResumed]: ({ subscriptionId, period }) => ({ subscriptionId, period, resumed: true }),
    // Ship now (issue 21): the period's renewal at once, with the sweep's own job id (below), so a sweep
    // at the same moment adds the same job; the period's payment row guards the charge whatever runs.
    [OUTBOX_TOPICS.subscriptionShipNowRequested]: ({ subscriptionId, period }) => ({ subscriptionId, period }),
  },
  topicJobIds: {
    [OUTBOX_TOPICS.subscriptionShipNowRequested]: ({ subscriptionId, period, attempt }) => jobId('renew', subscriptionId, period, attempt),
  },
  /**
   * The sweep's job: one per (subscription, billing period, attempt): a second sweep while the job
   * exists adds nothing, and the retry after a decline (attempt = failed attempts so far) is a new job.
   */
  jobId: (subscriptionId: string, period: string, attempt: number) => jobId('renew', subscriptionId, period, attempt),
  handler: ({ db, gateway, log, tax }) =>
    async function renew(job, { subscriptionId, period, resumed }): Promise<RenewResult> {
      const jobLog = log.child({ jobId: job.id, queue: 'renewals', job: job.name });
      const result = await renewSubscription({ db, gateway, tax, log: jobLog.child({ subscriptionId, period }) }, subscriptionId, period, resumed ? 'plan-paused' : 'renewals-late');
      renewalsTotal.inc({ outcome: result.outcome });
      return result;
    },
});
