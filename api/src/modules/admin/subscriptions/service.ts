/**
 * Subscribe & Save plans in the back office: the table, a plan with its billing history, the at-risk
 * list, and the actions staff take on a customer's behalf. Each action is one transaction on the plan
 * row locked FOR UPDATE (the renewal's own lock, @nh/server lockPlanForChange), so a renewal and a staff
 * action never both apply: whichever comes second judges the row as the first left it. The action's
 * audit row (before and after) and its outbox row (the customer's email, which reads that audit row)
 * are written in the same transaction. The rules of pause, resume, skip and reschedule are the shopper's
 * too (../../subscriptions/plan-rules.ts); docs/decisions/subscriptions.md ("Staff actions on a plan").
 */
import { changeLockedPlan, lastPlanPeriod, type LockedPlan, type PlanChangeDecision } from '@nh/server/queries/subscriptions/changes';
import { databaseToday, findAtRiskSubscriptions, listAdminSubscriptions, planBilling, type AtRiskRow, type PlanBilling } from '@nh/server/queries/subscriptions/staff';
import { findPlan, findPlanCardBrand } from '@nh/server/queries/subscriptions/plan';
import { findLastPause, listPlanChanges } from '@nh/server/queries/subscriptions/plan-history';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { recordOutbox } from '@nh/server/queries/outbox';
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { SubscriptionRow } from '@nh/server/db/schema';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { STORE_CODE } from '@nh/shared/constants';
import { STOCK_COVER_DAYS } from '@nh/shared/contracts/admin-reports';
import { centsToDecimal, toCents } from '@nh/shared/money';
import type { AuditAction } from '@nh/shared/contracts/audit';
import {
  ADMIN_SUBSCRIPTION_MESSAGES as MSG,
  rescheduleWindow,
  type AdminAtRiskQuery,
  type AdminSubscriptionDetail,
  type AdminSubscriptionSummary,
  type AdminSubscriptionsPage,
  type AdminSubscriptionsQuery,
  type AtRiskPage,
  type AtRiskReason,
  type BillingHistoryEntry,
  type BillingOutcome,
  type PauseCause,
} from '@nh/shared/contracts/admin-subscriptions';
import { billingPeriodOf, cadenceWords } from '@nh/shared/contracts/subscriptions';
import { findPlanConsent, listPriceNotices } from '@nh/server/queries/subscriptions/consent';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';
import { recordCancellation } from '@nh/server/queries/subscriptions/cancellations';
import { CANCEL_REASONS, type CancelReason } from '@nh/shared/contracts/cancellation';
import { decideCancel, decideFrequency, decidePause, decideReschedule, decideResume, decideSkip, hasEnded as ended, hasStoredCard, chargeBeingChecked, chargeUnderWay, periodBusy, type PlanDecision } from '../../subscriptions/plan-rules';

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const asFields = (value: unknown): Record<string, unknown> | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

const itemsView = (items: SubscriptionRow['items']) => items.map(({ productId, productName, variantSku, quantity, price }) => ({ productId, productName, variantSku, quantity, price }));

function toSummary(row: SubscriptionRow): AdminSubscriptionSummary {
  return {
    id: row.id,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    status: row.status,
    items: itemsView(row.items),
    amount: centsToDecimal(row.amount),
    interval: row.interval,
    intervalCount: row.intervalCount,
    nextBillingDate: row.nextBillingDate.toISOString(),
    failedAttempts: row.failedAttempts,
    retryAt: iso(row.retryAt),
    createdAt: row.createdAt.toISOString(),
    cancelledAt: iso(row.cancelledAt),
  };
}

export async function listSubscriptions(db: Db, q: AdminSubscriptionsQuery): Promise<AdminSubscriptionsPage> {
  const { rows, total } = await listAdminSubscriptions(db, q);
  return { subscriptions: rows.map(toSummary), total };
}

// ---- The rules staff actions and the detail's buttons share ----

/**
 * Paused while its renewals were failing (dunning ran out, no saved card, or paused mid-dunning): the
 * customer restarts it with a new card. Paused with a clean slate: staff paused it, staff may resume it.
 */
const pauseCauseOf = (row: SubscriptionRow): PauseCause | null => (row.status !== 'paused' ? null : row.failedAttempts > 0 ? 'payment-failed' : 'staff');

function availableActions(row: SubscriptionRow, periodCharge: LockedPlan['periodCharge'], today: Date): AdminSubscriptionDetail['actions'] {
  const active = row.status === 'active';
  return {
    // Pause and cancel wait only for a charge in flight; one being checked (held, unknown) never stops them.
    pause: active && !chargeUnderWay(periodCharge),
    resume: pauseCauseOf(row) === 'staff' && hasStoredCard(row),
    skip: active && !periodBusy(periodCharge),
    reschedule: active && row.failedAttempts === 0 && !periodBusy(periodCharge) && rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today) !== null,
    frequency: active && row.failedAttempts === 0 && !periodBusy(periodCharge),
    cancel: !ended(row) && !chargeUnderWay(periodCharge),
    // On the customer's behalf (./on-behalf.ts): the shopper's rules (plan-items.ts, plan-rules.ts decideAddress).
    items: active && !periodBusy(periodCharge),
    address: !ended(row) && !periodBusy(periodCharge),
    cardLink: !ended(row),
  };
}

// ---- The detail ----

const OUTCOME_OF: Record<PlanBilling['charges'][number]['status'], BillingOutcome> = {
  approved: 'charged',
  pending: 'pending',
  declined: 'declined',
  error: 'failed',
  refunded: 'refunded',
};

/** Each period charged, processing, declined, not charged, refunded or skipped, newest first. */
function billingHistory(billing: PlanBilling): BillingHistoryEntry[] {
  const entries: Array<BillingHistoryEntry & { sortAt: number }> = [
    ...billing.charges.map((c) => ({
      period: c.period,
      outcome: OUTCOME_OF[c.status],
      amount: centsToDecimal(c.amount),
      orderId: c.orderId,
      message: c.message,
      cardType: c.cardType,
      cardLastFour: c.cardLastFour,
      skipReason: null,
      at: c.at.toISOString(),
      sortAt: c.at.getTime(),
    })),
    ...billing.skipped.map((k) => ({
      period: k.period,
      outcome: 'skipped' as const,
      amount: null,
      orderId: null,
      message: null,
      cardType: null,
      cardLastFour: null,
      skipReason: k.reason,
      at: k.at.toISOString(),
      sortAt: k.at.getTime(),
    })),
  ];
  entries.sort((a, b) => (a.period === b.period ? b.sortAt - a.sortAt : a.period < b.period ? 1 : -1));
  return entries.map(({ sortAt: _sortAt, ...entry }) => entry);
}

async function detailOf(db: Db, row: SubscriptionRow): Promise<AdminSubscriptionDetail> {
  const [card, billing, today, changes, lastPause, consent, notices] = await Promise.all([
    findPlanCardBrand(db.$client, row.id),
    planBilling(db, row.id),
    databaseToday(db),
    listPlanChanges(db, row.id),
    row.status === 'paused' && row.failedAttempts === 0 ? findLastPause(db.$client, row.id) : null,
    findPlanConsent(db, row.id),
    listPriceNotices(db, row.id),
  ]);
  const period = billingPeriodOf(row.nextBillingDate);
  const charge = billing.charges.find((c) => c.period === period);
  const periodCharge = charge ? { status: charge.status, responseMessage: charge.message } : null;
  return {
    ...toSummary(row),
    userId: row.userId,
    discountPercent: row.discountPercent,
    shippingAddress: row.shippingAddress,
    cardType: card.cardType,
    cardLastFour: card.cardLastFour,
    hasStoredCard: hasStoredCard(row),
    cardExpiresOn: row.cardExpiresOn,
    pauseCause: pauseCauseOf(row),
    pausedBy: lastPause,
    resumesOn: row.status === 'paused' ? row.resumesOn : null,
    actions: availableActions(row, periodCharge, today),
    chargeBeingChecked: !ended(row) && chargeBeingChecked(periodCharge),
    rescheduleWindow: row.status === 'active' ? rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today) : null,
    history: billingHistory(billing),
    orders: billing.orders.map((o) => ({ id: o.id, status: o.status, total: centsToDecimal(o.total), createdAt: o.createdAt.toISOString() })),
    customerChanges: changes.map((c) => ({ id: c.id, at: c.at.toISOString(), actor: c.actor, kind: c.kind, before: asFields(c.before), after: asFields(c.after), via: c.via })),
    oneTimeItems: row.oneTimeItems.map(({ id, productId, productName, variantSku, quantity }) => ({ id, productId, productName, variantSku, quantity })),
    addOnActions: {
      shipNow: row.status === 'active' && row.failedAttempts === 0 && !periodBusy(periodCharge),
      oneTimeItems: row.status === 'active' && !periodBusy(periodCharge),
    },
    consent: consent && {
      termsVersion: consent.termsVersion,
      termsText: consent.termsText,
      agreedAmount: centsToDecimal(consent.amountCents),
      cadence: cadenceWords(consent.interval, consent.intervalCount),
      agreedAt: consent.agreedAt.toISOString(),
      shippingAddress: consent.shippingAddress,
      userAgent: consent.userAgent,
      anonymised: consent.anonymisedAt !== null,
    },
    priceNotices: notices.map((n) => ({ fromAmount: centsToDecimal(n.fromAmount), toAmount: centsToDecimal(n.toAmount), firstChargeOn: n.firstChargeOn, sentAt: n.createdAt.toISOString() })),
  };
}

export async function getSubscription(db: Db, id: string): Promise<AdminSubscriptionDetail> {
  const row = isUuid(id) ? await findPlan(db, id) : null;
  if (!row) throw new AppError('NOT_FOUND', MSG.notFound);
  return detailOf(db, row);
}

// ---- The at-risk list ----

function toAtRisk(r: AtRiskRow) {
  const reasons: AtRiskReason[] = [];
  if (r.unavailable_items) reasons.push('item-unavailable');
  if (r.failed_attempts > 0) reasons.push('dunning');
  if (r.card_expiring) reasons.push('card-expiring');
  if (r.short_items) reasons.push('stock-short');
  const summary: AdminSubscriptionSummary = {
    id: r.id,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    status: r.status,
    items: itemsView(r.items),
    amount: centsToDecimal(toCents(r.amount)),
    interval: r.interval,
    intervalCount: r.interval_count,
    nextBillingDate: r.next_billing_date.toISOString(),
    failedAttempts: r.failed_attempts,
    retryAt: iso(r.retry_at),
    createdAt: r.created_at.toISOString(),
    cancelledAt: iso(r.cancelled_at),
  };
  return { ...summary, reasons, unavailableItems: r.unavailable_items ?? [], lastPaymentMessage: r.last_payment_message, cardExpiresOn: r.card_expires_on, shortItems: r.short_items ?? [] };
}

export async function listAtRisk(db: Db, q: AdminAtRiskQuery): Promise<AtRiskPage> {
  // stock-short: the stock cover report's own walk over its window (one rule, queries/stock-cover.ts).
  const { rows, total } = await findAtRiskSubscriptions(db.$client, { ...q, storeCode: STORE_CODE, stockCoverDays: STOCK_COVER_DAYS });
  return { plans: rows.map(toAtRisk), total };
}

// ---- Actions ----

const ACTION_OF: Record<PlanDecision['kind'] | 'cancelled', AuditAction> = {
  paused: 'subscription.paused',
  resumed: 'subscription.resumed',
  skipped: 'subscription.skipped',
  rescheduled: 'subscription.rescheduled',
  frequency: 'subscription.frequency_changed',
  items: 'subscription.items_changed',
  address: 'subscription.address_changed',
  cancelled: 'subscription.cancelled',
};

/** What an action does to the locked plan, or null when it changes nothing (nothing recorded, nobody emailed). */
export interface Decision extends PlanChangeDecision {
  kind: PlanDecision['kind'] | 'cancelled';
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * One staff action: the plan locked, the rule decides (or refuses with its message), then the change,
 * the skipped periods (@nh/server changeLockedPlan, the shopper's sequence too), the audit row and the
 * email's outbox row, all in one transaction. Answers the
 * plan as the detail shows it.
 */
export async function act(
  db: Db,
  id: string,
  actor: AuditActor,
  decide: (plan: LockedPlan, tx: DbOrTx) => Decision | null | Promise<Decision | null>,
): Promise<AdminSubscriptionDetail> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', MSG.notFound);
  await db.transaction(async (tx) => {
    const found = await changeLockedPlan(tx, id, undefined, (plan) => decide(plan, tx), async (decision) => {
      const [auditId] = await recordAudit(tx, actor, { action: ACTION_OF[decision.kind], entityType: 'subscription', entityId: id, before: decision.before, after: decision.after });
      await recordOutbox(tx, OUTBOX_TOPICS.subscriptionChangedByStaff, { subscriptionId: id, auditId: auditId! });
    });
    if (!found) throw new AppError('NOT_FOUND', MSG.notFound);
  });
  return getSubscription(db, id);
}

/** Pause, with staff's reason in the audit row: the customer is told who paused it and why (page and email). */
export function pauseSubscription(db: Db, id: string, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, (plan) => {
    const decision = decidePause(plan, MSG);
    return { ...decision, after: { ...decision.after, reason } };
  });
}

export function resumeSubscription(db: Db, id: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, (plan) => decideResume(plan, MSG));
}

export function skipNextDelivery(db: Db, id: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, (plan) => decideSkip(plan, 'staff-skip', MSG));
}

export function rescheduleNextDelivery(db: Db, id: string, day: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, (plan) => decideReschedule(plan, day, MSG));
}

/** Deliver every `intervalCount` months (one of `offered`), with staff's reason kept in the audit row. */
export function changeFrequency(db: Db, id: string, intervalCount: number, reason: string, offered: readonly number[], actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, async (plan, tx) => {
    const decision = decideFrequency(plan, intervalCount, await lastPlanPeriod(tx, plan.row), offered, MSG);
    return decision && { ...decision, after: { ...decision.after, reason } };
  });
}

/**
 * Cancel on the customer's behalf: staff's own reason in the audit row and, when the customer said why,
 * their reason (issue 22, CANCEL_REASONS) kept for the cancellations report as well.
 */
export function cancelSubscription(db: Db, id: string, reason: string, actor: AuditActor, customerReason: CancelReason | null = null): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, async (plan, tx) => {
    const { row } = plan;
    const change = decideCancel(plan, MSG);
    const { cancelledAt } = change;
    // Written only once the rule allowed it, in the same transaction as the change and its audit row.
    await recordCancellation(tx, id, 'staff', customerReason, null);
    return {
      kind: 'cancelled',
      change,
      before: { status: row.status },
      after: { status: 'cancelled', cancelledAt: cancelledAt.toISOString(), reason, ...(customerReason ? { customerReason: CANCEL_REASONS[customerReason] } : {}) },
    };
  });
}
