/**
 * An order's timeline and resending its emails. The timeline merges the order row, its payment rows,
 * its emails, its NetSuite ledger and its audit trail into one list, oldest first, in staff words.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal } from '@nh/shared';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { findStoreOrder } from '@nh/server/queries/order-detail';
import { entityAudit, orderEmails, orderSyncAttempts } from '@nh/server/queries/order-timeline';
import { recordOutbox } from '@nh/server/queries/outbox';
import { listOrderPayments } from '@nh/server/queries/refunds';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { auditActionLabel } from '@nh/shared/contracts/audit';
import { CLAIM_DECISION_ACTIONS, claimDecisionSummary } from '@nh/shared/contracts/claims';
import { emailKindLabel, ORDER_EMAIL_KINDS } from '@nh/shared/contracts/emails';
import { RESEND_MESSAGES, RESENDABLE_EMAIL_LABELS, type OrderTimeline, type ResendableEmail, type TimelineEvent } from '@nh/shared/contracts/order-timeline';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';
import { cardEnding } from '@nh/shared/cards';

const RECORD_WORDS: Record<string, string> = { customer: 'customer', salesOrder: 'sales order', creditMemo: 'credit memo' };
const PAYMENT_WORDS = {
  charge: { approved: 'Paid', declined: 'Payment declined', error: 'Payment failed', pending: 'Payment pending', refunded: 'Paid (refunded)' },
  refund: { approved: 'Refunded', declined: 'Refund declined', error: 'Refund failed', pending: 'Refund pending', refunded: 'Refunded' },
  void: { approved: 'Payment voided', declined: 'Void refused', error: 'Void failed', pending: 'Void pending', refunded: 'Payment voided' },
} as const;

const money = (cents: number) => `$${centsToDecimal(cents)}`;
const words = (value: unknown) => (typeof value === 'string' ? value.replace(/_/g, ' ') : JSON.stringify(value));

/** "status: pending → shipped; carrier: none → UPS" from an audit row's before and after. */
function changeText(before: unknown, after: unknown): string | null {
  if (!after || typeof after !== 'object') return null;
  const was = (before ?? {}) as Record<string, unknown>;
  const parts = Object.entries(after as Record<string, unknown>).map(([key, value]) => `${key}: ${was[key] === undefined || was[key] === null ? 'none' : words(was[key])} → ${value === null ? 'none' : words(value)}`);
  return parts.length ? parts.join('; ') : null;
}

async function findOrder(db: Db, storeCode: string, id: string) {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const order = await findStoreOrder(db, storeCode, id);
  if (!order) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  return order;
}

export async function orderTimeline(db: Db, storeCode: string, id: string): Promise<OrderTimeline> {
  const order = await findOrder(db, storeCode, id);
  const [payments, emails, attempts, audit] = await Promise.all([
    listOrderPayments(db, id),
    orderEmails(db, id, ORDER_EMAIL_KINDS),
    orderSyncAttempts(db, id),
    entityAudit(db, 'order', id),
  ]);
  const events: TimelineEvent[] = [{ at: order.createdAt.toISOString(), kind: 'placed', title: 'Order placed', detail: `Total ${money(order.total)}`, actor: null, problem: false, replacementOrderId: null }];
  for (const p of payments) {
    const card = p.cardType ? cardEnding(p.cardType, p.cardLastFour) : null;
    events.push({
      at: p.createdAt.toISOString(),
      kind: p.kind === 'charge' ? 'payment' : 'refund',
      title: `${PAYMENT_WORDS[p.kind][p.status]} ${money(p.amount)}`,
      detail: [card, p.reason, p.status === 'declined' || p.status === 'error' ? p.responseMessage : null].filter(Boolean).join(' · ') || null,
      actor: p.staffEmail,
      problem: p.status === 'declined' || p.status === 'error',
      replacementOrderId: null,
    });
  }
  for (const e of emails) {
    const name = emailKindLabel(e.kind);
    const resent = e.subjectId !== id && e.kind !== 'order-refunded'; // one refund email per refund, never a resend
    events.push({
      at: (e.sentAt ?? e.createdAt).toISOString(),
      kind: 'email',
      title: `${name}${resent ? ' (sent again)' : ''} ${e.status === 'sent' ? 'sent' : e.status === 'failed' ? 'not delivered' : e.status}`,
      detail: e.status === 'failed' && e.error ? `${e.to}: ${e.error}` : e.to,
      actor: null,
      problem: e.status === 'failed',
      replacementOrderId: null,
    });
  }
  for (const a of attempts) {
    events.push({
      at: a.at.toISOString(),
      kind: 'sync',
      title: `NetSuite ${RECORD_WORDS[a.record] ?? a.record}: ${a.outcome === 'ok' ? 'saved' : 'failed'}${a.httpStatus ? ` (${a.httpStatus})` : ''}`,
      detail: [a.errorCode, a.errorDetail, `${a.durationMs} ms`].filter(Boolean).join(' · '),
      actor: null,
      problem: a.outcome !== 'ok',
      replacementOrderId: null,
    });
  }
  for (const a of audit) {
    if (a.action === 'order.refunded') continue; // shown by its payment row, with the staff member
    // A claim's decision in words, naming (and linking) its replacement order.
    const claim = (CLAIM_DECISION_ACTIONS as readonly string[]).includes(a.action) ? claimDecisionSummary(a.after) : null;
    events.push({
      at: a.at.toISOString(),
      kind: 'staff',
      title: auditActionLabel(a.action),
      detail: claim ? claim.detail : changeText(a.before, a.after),
      actor: a.actorEmail,
      problem: false,
      replacementOrderId: claim?.replacementOrderId ?? null,
    });
  }
  events.sort((x, y) => x.at.localeCompare(y.at));
  return { orderId: id, events };
}

/** Sends the confirmation or the shipping notice again: a new email (its own subject), through the outbox. */
export async function resendOrderEmail(db: Db, storeCode: string, id: string, email: ResendableEmail, actor: AuditActor): Promise<void> {
  const order = await findOrder(db, storeCode, id);
  if (email === 'shipping' && order.status !== 'shipped' && order.status !== 'delivered') throw new AppError('ORDER_NOT_SHIPPED', RESEND_MESSAGES.notShipped);
  const resendId = randomUUID();
  await db.transaction(async (tx) => {
    await recordOutbox(tx, email === 'confirmation' ? OUTBOX_TOPICS.orderConfirmationResendRequested : OUTBOX_TOPICS.orderShippedResendRequested, { orderId: id, resendId });
    await recordAudit(tx, actor, { action: 'order.email_resent', entityType: 'order', entityId: id, after: { email: RESENDABLE_EMAIL_LABELS[email], to: order.customerEmail } });
  });
}
