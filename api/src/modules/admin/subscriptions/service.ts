/**
 * Subscribe & Save plans in the back office: the table, a plan with its billing history, the at-risk
 * list, and the actions staff take on a customer's behalf. Each action is one transaction on the plan
 * row locked FOR UPDATE (the renewal's own lock, @nh/server lockPlanForStaff), so a renewal and a staff
 * action never both apply: whichever comes second judges the row as the first left it. The action's
 * audit row (before and after) and its outbox row (the customer's email, which reads that audit row)
 * are written in the same transaction. Rules: docs/decisions/subscriptions.md ("Staff actions on a plan").
 */
import {
  databaseToday,
  findAtRiskSubscriptions,
  findPlan,
  latestPlanCard,
  listAdminSubscriptions,
  lockPlanForStaff,
  planBilling,
  recordAudit,
  recordOutbox,
  recordSkippedPeriods,
  updatePlanByStaff,
  type AtRiskRow,
  type AuditActor,
  type Db,
  type PlanBilling,
  type StaffLockedPlan,
  type StaffPlanChange,
  type SubscriptionRow,
} from '@nh/server';
import { OUTBOX_TOPICS } from '@nh/shared/jobs';
import { centsToDecimal, toCents } from '@nh/shared/money';
import type { AuditAction } from '@nh/shared/contracts/audit';
import {
  ADMIN_SUBSCRIPTION_MESSAGES as MSG,
  missedWhilePaused,
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
import { billingPeriodOf, nextBillingDate, type SkippedPeriodReason } from '@nh/shared/contracts/subscriptions';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

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

const hasStoredCard = (row: SubscriptionRow) => Boolean(row.authnetCustomerProfileId && row.authnetPaymentProfileId);

/**
 * Paused while its renewals were failing (dunning ran out, no saved card, or paused mid-dunning): the
 * customer restarts it with a new card. Paused with a clean slate: staff paused it, staff may resume it.
 */
const pauseCauseOf = (row: SubscriptionRow): PauseCause | null => (row.status !== 'paused' ? null : row.failedAttempts > 0 ? 'payment-failed' : 'staff');

/**
 * The period's charge is under way (pending: being charged, or its outcome unknown) or paid but not yet
 * booked (approved, the renewal finishing): its period must not be skipped, moved or passed over.
 */
const periodBusy = (status: StaffLockedPlan['periodCharge']) => status !== null && status !== 'declined' && status !== 'error';

const ended = (row: SubscriptionRow) => row.status === 'cancelled' || row.status === 'expired';

function availableActions(row: SubscriptionRow, periodCharge: StaffLockedPlan['periodCharge'], today: Date): AdminSubscriptionDetail['actions'] {
  const active = row.status === 'active';
  return {
    pause: active,
    resume: pauseCauseOf(row) === 'staff' && hasStoredCard(row),
    skip: active && !periodBusy(periodCharge),
    reschedule: active && row.failedAttempts === 0 && !periodBusy(periodCharge) && rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today) !== null,
    cancel: !ended(row),
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
  const [card, billing, today] = await Promise.all([latestPlanCard(db, row.id), planBilling(db, row.id), databaseToday(db)]);
  const period = billingPeriodOf(row.nextBillingDate);
  const periodCharge = billing.charges.find((c) => c.period === period)?.status ?? null;
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
    actions: availableActions(row, periodCharge, today),
    rescheduleWindow: row.status === 'active' ? rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today) : null,
    history: billingHistory(billing),
    orders: billing.orders.map((o) => ({ id: o.id, status: o.status, total: centsToDecimal(o.total), createdAt: o.createdAt.toISOString() })),
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
  return { ...summary, reasons, unavailableItems: r.unavailable_items ?? [], lastPaymentMessage: r.last_payment_message, cardExpiresOn: r.card_expires_on };
}

export async function listAtRisk(db: Db, q: AdminAtRiskQuery): Promise<AtRiskPage> {
  const { rows, total } = await findAtRiskSubscriptions(db.$client, q);
  return { plans: rows.map(toAtRisk), total };
}

// ---- Actions ----

/** What an action does to the locked plan, or null when it changes nothing (nothing recorded, nobody emailed). */
interface Decision {
  action: AuditAction;
  change: StaffPlanChange;
  skip?: { periods: string[]; reason: SkippedPeriodReason };
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * One staff action: the plan locked, the rule decides (or refuses with its message), then the change,
 * the skipped periods, the audit row and the email's outbox row, all in one transaction. Answers the
 * plan as the detail shows it.
 */
async function act(db: Db, id: string, actor: AuditActor, decide: (plan: StaffLockedPlan) => Decision | null): Promise<AdminSubscriptionDetail> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', MSG.notFound);
  await db.transaction(async (tx) => {
    const plan = await lockPlanForStaff(tx, id);
    if (!plan) throw new AppError('NOT_FOUND', MSG.notFound);
    const decision = decide(plan);
    if (!decision) return;
    if (decision.skip) await recordSkippedPeriods(tx, id, decision.skip.periods, decision.skip.reason);
    await updatePlanByStaff(tx, id, decision.change);
    const [auditId] = await recordAudit(tx, actor, { action: decision.action, entityType: 'subscription', entityId: id, before: decision.before, after: decision.after });
    await recordOutbox(tx, OUTBOX_TOPICS.subscriptionChangedByStaff, { subscriptionId: id, auditId: auditId! });
  });
  return getSubscription(db, id);
}

/** The refusal of an action on a plan that has ended, or that is not in the state the action needs. */
function refuseState(row: SubscriptionRow, code: 'SUBSCRIPTION_NOT_ACTIVE' | 'SUBSCRIPTION_NOT_PAUSED', message: string): never {
  if (ended(row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
  throw new AppError(code, message);
}

export function pauseSubscription(db: Db, id: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, ({ row }) => {
    if (row.status !== 'active') refuseState(row, 'SUBSCRIPTION_NOT_ACTIVE', MSG.pauseNotActive);
    // Dunning state is kept: a plan paused mid-dunning stays one only a new card restarts.
    return { action: 'subscription.paused', change: { status: 'paused' }, before: { status: 'active' }, after: { status: 'paused' } };
  });
}

export function resumeSubscription(db: Db, id: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, ({ row, today, periodCharge }) => {
    if (row.status !== 'paused') refuseState(row, 'SUBSCRIPTION_NOT_PAUSED', MSG.notPaused);
    if (row.failedAttempts > 0) throw new AppError('SUBSCRIPTION_NEEDS_NEW_CARD', MSG.needsNewCard);
    if (!hasStoredCard(row)) throw new AppError('SUBSCRIPTION_NEEDS_NEW_CARD', MSG.noStoredCard);
    // Billing dates that went by while paused are skipped (never charged later); a period whose charge
    // may have gone through is never passed over.
    const { next, missed } = missedWhilePaused(row.nextBillingDate, row.interval, row.intervalCount, today);
    if (missed.length > 0 && periodBusy(periodCharge)) throw new AppError('SUBSCRIPTION_CHARGE_IN_PROGRESS', MSG.chargeInProgress);
    const periods = missed.map(billingPeriodOf);
    const moved = missed.length > 0;
    return {
      action: 'subscription.resumed',
      change: { status: 'active', ...(moved ? { nextBillingDate: next } : {}) },
      skip: moved ? { periods, reason: 'plan-paused' } : undefined,
      before: { status: 'paused', ...(moved ? { nextBillingDate: row.nextBillingDate.toISOString() } : {}) },
      after: { status: 'active', ...(moved ? { nextBillingDate: next.toISOString(), skippedPeriods: periods } : {}) },
    };
  });
}

export function skipNextDelivery(db: Db, id: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, ({ row, periodCharge }) => {
    if (row.status !== 'active') refuseState(row, 'SUBSCRIPTION_NOT_ACTIVE', MSG.skipNotActive);
    if (periodBusy(periodCharge)) throw new AppError('SUBSCRIPTION_CHARGE_IN_PROGRESS', MSG.chargeInProgress);
    const period = billingPeriodOf(row.nextBillingDate);
    const next = nextBillingDate(row.nextBillingDate, row.interval, row.intervalCount);
    // The skipped period's retries end with it: the next period starts with a clean dunning slate.
    const dunning = row.failedAttempts > 0 || row.retryAt !== null;
    return {
      action: 'subscription.skipped',
      change: { nextBillingDate: next, failedAttempts: 0, retryAt: null },
      skip: { periods: [period], reason: 'staff-skip' },
      before: { nextBillingDate: row.nextBillingDate.toISOString(), ...(dunning ? { failedAttempts: row.failedAttempts, retryAt: iso(row.retryAt) } : {}) },
      after: { nextBillingDate: next.toISOString(), skippedPeriod: period, ...(dunning ? { failedAttempts: 0, retryAt: null } : {}) },
    };
  });
}

export function rescheduleNextDelivery(db: Db, id: string, day: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, ({ row, today, periodCharge }) => {
    if (row.status !== 'active') refuseState(row, 'SUBSCRIPTION_NOT_ACTIVE', MSG.rescheduleNotActive);
    if (row.failedAttempts > 0) throw new AppError('SUBSCRIPTION_IN_DUNNING', MSG.inDunning);
    if (periodBusy(periodCharge)) throw new AppError('SUBSCRIPTION_CHARGE_IN_PROGRESS', MSG.chargeInProgress);
    const window = rescheduleWindow(row.nextBillingDate, row.interval, row.intervalCount, today);
    if (!window) throw new AppError('SUBSCRIPTION_DATE_NOT_ALLOWED', MSG.noDateAllowed);
    if (day < window.earliest || day > window.latest) throw new AppError('SUBSCRIPTION_DATE_NOT_ALLOWED', MSG.dateNotAllowed(window.earliest, window.latest), window);
    // The billing date keeps its time of day; only the day moves.
    const timeOfDay = row.nextBillingDate.getTime() - Date.parse(`${billingPeriodOf(row.nextBillingDate)}T00:00:00.000Z`);
    const next = new Date(Date.parse(`${day}T00:00:00.000Z`) + timeOfDay);
    if (next.getTime() === row.nextBillingDate.getTime()) return null;
    return {
      action: 'subscription.rescheduled',
      change: { nextBillingDate: next },
      before: { nextBillingDate: row.nextBillingDate.toISOString() },
      after: { nextBillingDate: next.toISOString() },
    };
  });
}

export function cancelSubscription(db: Db, id: string, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, ({ row }) => {
    if (ended(row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
    const cancelledAt = new Date();
    return {
      action: 'subscription.cancelled',
      change: { status: 'cancelled', cancelledAt },
      before: { status: row.status },
      after: { status: 'cancelled', cancelledAt: cancelledAt.toISOString(), reason },
    };
  });
}
