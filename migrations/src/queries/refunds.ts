/**
 * Refunds and voids of an order's charge (docs/decisions/refunds.md): payment rows of kind `refund` or
 * `void` whose `parent_id` is the charge. The back office writes them in three steps, like the checkout
 * (reserve, call, record):
 *
 * 1. `lockOrderCharge` + `insertPendingRefund`, in one transaction: the order row and then its charge
 *    row locked (FOR UPDATE, always in that order), what is already given back (approved and pending
 *    rows: a refund in flight holds its amount) summed under the lock, the request checked against it,
 *    the pending row inserted. Two staff members refunding at once are serialised by the charge's lock,
 *    so together they never give back more than was captured.
 * 2. The gateway call, outside any transaction.
 * 3. `lockOrderCharge` again, then `recordRefundOutcome`: the pending row gets the gateway's answer
 *    (only while still pending, so it is recorded once), in the transaction that also puts stock back
 *    and writes the audit row.
 *
 * The pending row carries the request's idempotency key (unique per charge), so a repeat finds it
 * (`findRefundByKey`) and answers it instead of refunding twice.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { toCents, type Cents } from '@nh/shared/money';
import type { Db, DbOrTx } from '../db/client';
import { orders, paymentTransactions, staff, type LineItem, type OrderRow, type RefundLinePart } from '../db/schema';
import { paymentAnswerUnsettled, paymentInFlightSql } from './payment-in-flight';

const p = paymentTransactions;

export type PaymentRow = typeof paymentTransactions.$inferSelect;
export type RefundKind = 'refund' | 'void';

/** The captured charge of an order: its approved payment row of kind charge. */
export type OrderCharge = Pick<PaymentRow, 'id' | 'authnetTransactionId' | 'amount' | 'cardType' | 'cardLastFour' | 'environment' | 'invoiceNumber'>;

export interface LockedOrderCharge {
  order: Pick<OrderRow, 'id' | 'status' | 'items'>;
  /** Null when the order has no captured charge (never paid, declined, held for review, …). */
  charge: OrderCharge | null;
  /** Cents given back by approved refunds and voids. */
  refunded: Cents;
  /** Cents held by refunds and voids still pending (in flight, or their answer lost). */
  pending: Cents;
  /** Of `pending`, the cents of refunds and voids whose answer was lost (not in flight: payment-in-flight.ts). */
  unanswered: Cents;
  /** A refund (approved or in flight) already puts, or put, the order's items back in stock. */
  restocked: boolean;
  /** The charge was voided (an approved void: always the whole charge). */
  voided: boolean;
}

const chargeColumns = {
  id: p.id,
  authnetTransactionId: p.authnetTransactionId,
  amount: p.amount,
  cardType: p.cardType,
  cardLastFour: p.cardLastFour,
  environment: p.environment,
  invoiceNumber: p.invoiceNumber,
};

/** The order's captured charge (the newest approved charge row), without a lock. */
export async function findOrderCharge(db: DbOrTx, orderId: string): Promise<OrderCharge | null> {
  const [charge] = await db
    .select(chargeColumns)
    .from(p)
    .where(and(eq(p.orderId, orderId), eq(p.kind, 'charge'), eq(p.status, 'approved')))
    .orderBy(desc(p.createdAt))
    .limit(1);
  return charge ?? null;
}

/** What is given back of a charge so far: approved and pending amounts (and of those, the unanswered), whether a refund restocks, whether it was voided. */
async function givenBack(db: DbOrTx, chargeId: string): Promise<{ refunded: Cents; pending: Cents; unanswered: Cents; restocked: boolean; voided: boolean }> {
  const [row] = await db
    .select({
      refunded: sql<string>`coalesce(sum(${p.amount}) filter (where ${p.status} = 'approved'), 0)::text`,
      pending: sql<string>`coalesce(sum(${p.amount}) filter (where ${p.status} = 'pending'), 0)::text`,
      unanswered: sql<string>`coalesce(sum(${p.amount}) filter (where ${p.status} = 'pending' and not ${sql.raw(paymentInFlightSql('payment_transactions'))}), 0)::text`,
      restocked: sql<boolean>`coalesce(bool_or(${p.restocked}) filter (where ${p.status} in ('approved', 'pending')), false)`,
      voided: sql<boolean>`coalesce(bool_or(${p.kind} = 'void') filter (where ${p.status} = 'approved'), false)`,
    })
    .from(p)
    .where(and(eq(p.parentId, chargeId), inArray(p.kind, ['refund', 'void'])));
  return {
    refunded: toCentsText(row?.refunded),
    pending: toCentsText(row?.pending),
    unanswered: toCentsText(row?.unanswered),
    restocked: row?.restocked ?? false,
    voided: row?.voided ?? false,
  };
}

const toCentsText = (text: string | undefined): Cents => toCents(text ?? '0');

/**
 * In the caller's transaction: locks the order of the store (null when there is none), then its
 * captured charge, and sums what was given back under that lock.
 */
export async function lockOrderCharge(tx: DbOrTx, orderId: string, storeCode: string): Promise<LockedOrderCharge | null> {
  const [order] = await tx
    .select({ id: orders.id, status: orders.status, items: orders.items })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.storeCode, storeCode)))
    .for('update');
  if (!order) return null;
  const [charge] = await tx
    .select(chargeColumns)
    .from(p)
    .where(and(eq(p.orderId, orderId), eq(p.kind, 'charge'), eq(p.status, 'approved')))
    .orderBy(desc(p.createdAt))
    .limit(1)
    .for('update');
  if (!charge) return { order, charge: null, refunded: 0, pending: 0, unanswered: 0, restocked: false, voided: false };
  return { order, charge, ...(await givenBack(tx, charge.id)) };
}

/** The refund or void made under this idempotency key for this charge, if any. */
export async function findRefundByKey(db: DbOrTx, chargeId: string, key: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(p)
    .where(and(eq(p.parentId, chargeId), eq(p.idempotencyKey, key)));
  return row ?? null;
}

export interface PendingRefund {
  id: string;
  kind: RefundKind;
  orderId: string;
  charge: OrderCharge;
  amount: Cents;
  invoiceNumber: string;
  reason: string;
  staffId: string | null;
  idempotencyKey: string;
  /** The refund is to put the order's items back in stock (done when it is approved). */
  restock: boolean;
  environment: string;
  /** A refund by line (issue 23): its lines, and the shipping it gives back. */
  lines?: RefundLinePart[] | null;
  shipping?: Cents;
}

/**
 * The refund's pending row, before the gateway is called (in the transaction holding the charge's
 * lock). Null when a request with the same key got there first.
 */
export async function insertPendingRefund(tx: DbOrTx, r: PendingRefund): Promise<PaymentRow | null> {
  const [row] = await tx
    .insert(p)
    .values({
      id: r.id,
      kind: r.kind,
      parentId: r.charge.id,
      orderId: r.orderId,
      invoiceNumber: r.invoiceNumber,
      amount: r.amount,
      status: 'pending',
      cardType: r.charge.cardType,
      cardLastFour: r.charge.cardLastFour,
      environment: r.environment,
      reason: r.reason,
      staffId: r.staffId,
      idempotencyKey: r.idempotencyKey,
      restocked: r.restock,
      refundLines: r.lines ?? null,
      refundShipping: r.shipping ?? 0,
    })
    .onConflictDoNothing({ target: [p.parentId, p.idempotencyKey], where: sql`${p.idempotencyKey} is not null` })
    .returning();
  return row ?? null;
}

export interface RefundOutcomeRecord {
  refundId: string;
  /** pending: the gateway's answer was lost (the row keeps what it said, and its amount stays held). */
  status: 'approved' | 'declined' | 'error' | 'pending';
  transactionId: string | null;
  responseCode: string | null;
  message: string;
  /** Whether the items went back in stock with it (false unless approved). */
  restocked: boolean;
  /** A refund by line: its lines as recorded (each line's restock false unless its items went back). */
  refundLines?: RefundLinePart[] | null;
}

/** Records the gateway's answer on the pending row (only while it is pending). Null when it was recorded already. */
export async function recordRefundOutcome(tx: DbOrTx, o: RefundOutcomeRecord): Promise<PaymentRow | null> {
  const [row] = await tx
    .update(p)
    .set({
      status: o.status,
      authnetTransactionId: o.transactionId,
      responseCode: o.responseCode,
      responseMessage: o.message,
      restocked: o.restocked,
      ...(o.refundLines !== undefined ? { refundLines: o.refundLines } : {}),
    })
    .where(and(eq(p.id, o.refundId), eq(p.status, 'pending')))
    .returning();
  return row ?? null;
}

/** A payment row as the order's detail shows it: with the staff member who refunded or voided. */
export type OrderPaymentRow = PaymentRow & { staffEmail: string | null };

/** Every payment row of an order (charges, refunds, voids), oldest first. */
export async function listOrderPayments(db: Db, orderId: string): Promise<OrderPaymentRow[]> {
  const rows = await db
    .select({ payment: p, staffEmail: staff.email })
    .from(p)
    .leftJoin(staff, eq(staff.id, p.staffId))
    .where(eq(p.orderId, orderId))
    .orderBy(asc(p.createdAt), asc(p.id));
  return rows.map((r) => ({ ...r.payment, staffEmail: r.staffEmail }));
}

/** What was captured and given back of an order's charge, from its payment rows (all zero without a captured charge). */
export interface GivenBack {
  captured: Cents;
  /** Approved refunds and voids of the charge. */
  refunded: Cents;
  /** Refunds and voids of it still pending (in flight, or their answer lost). */
  pending: Cents;
  /** Of `pending`, the refunds and voids whose answer was lost (pending with the payment service's words: payment-in-flight.ts); 0 when not given. */
  unanswered?: Cents;
  /** An approved void (always the whole charge). */
  voided: boolean;
}

/** The order's captured charge (its newest approved charge row) and what was given back of it, from the order's payment rows. */
export function givenBackOf(rows: readonly PaymentRow[]): GivenBack {
  const charge = rows.filter((r) => r.kind === 'charge' && r.status === 'approved').at(-1);
  if (!charge) return { captured: 0, refunded: 0, pending: 0, unanswered: 0, voided: false };
  const children = rows.filter((r) => r.parentId === charge.id && r.kind !== 'charge');
  const approved = children.filter((r) => r.status === 'approved');
  const sum = (list: readonly PaymentRow[]) => list.reduce((total, r) => total + r.amount, 0);
  return {
    captured: charge.amount,
    refunded: sum(approved),
    pending: sum(children.filter((r) => r.status === 'pending')),
    unanswered: sum(children.filter(paymentAnswerUnsettled)),
    voided: approved.some((r) => r.kind === 'void'),
  };
}

/**
 * What can still be given back of an order's rows: the approved charge less the approved and pending
 * refunds and voids of it (0 without a captured charge).
 */
export function refundableOf(rows: readonly PaymentRow[]): { captured: Cents; refunded: Cents; refundable: Cents } {
  const { captured, refunded, pending } = givenBackOf(rows);
  return { captured, refunded, refundable: Math.max(0, captured - refunded - pending) };
}

/**
 * How an order's whole payment went back: voided, refunded, being refunded (refunds in flight cover the
 * rest), or possibly refunded (refunds whose answer was lost are needed to cover it: only the payment
 * service knows); null while some of it is surely kept.
 */
export type PaymentReturned = 'voided' | 'refunded' | 'refunding' | 'refund-unconfirmed';

/**
 * The one rule of "this order's payment was given back" (an order that must not ship, and whose NetSuite
 * sales order is closed): nothing of a captured charge is kept, or may be kept. Null without a captured charge.
 */
export function paymentReturned(g: GivenBack): PaymentReturned | null {
  if (g.captured <= 0) return null;
  if (g.voided) return 'voided';
  if (g.refunded >= g.captured) return 'refunded';
  const unanswered = g.unanswered ?? 0;
  if (g.refunded + g.pending - unanswered >= g.captured) return 'refunding';
  if (g.refunded + g.pending >= g.captured) return 'refund-unconfirmed';
  return null;
}

/** Whether an approved refund of the order put its items back in stock (cancelling and reopening then leave stock alone). */
export async function orderRestockedByRefund(db: DbOrTx, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: p.id })
    .from(p)
    .where(and(eq(p.orderId, orderId), inArray(p.kind, ['refund', 'void']), eq(p.status, 'approved'), eq(p.restocked, true)))
    .limit(1);
  return Boolean(row);
}


/** What refunds by line took of an order's lines (issue 23): refunded quantities per line, the shipping, and the items put back. */
export interface RefundedLines {
  /** Per line index: items refunded by approved or pending refunds (a refund in flight holds its items). */
  quantities: Map<number, number>;
  /** Per line index: items an approved refund put back in stock (or a pending one will). */
  restocked: Map<number, number>;
  /** Cents of shipping given back by approved or pending refunds. */
  shipping: Cents;
}

/** Sums the refund rows' lines (approved and pending rows of kind refund or void of the order). */
export function refundedLinesOf(rows: ReadonlyArray<Pick<PaymentRow, 'kind' | 'status' | 'refundLines' | 'refundShipping'>>, statuses: readonly string[] = ['approved', 'pending']): RefundedLines {
  const out: RefundedLines = { quantities: new Map(), restocked: new Map(), shipping: 0 };
  for (const r of rows) {
    if (r.kind === 'charge' || !statuses.includes(r.status)) continue;
    out.shipping += r.refundShipping;
    for (const part of r.refundLines ?? []) {
      out.quantities.set(part.line, (out.quantities.get(part.line) ?? 0) + part.quantity);
      if (part.restock) out.restocked.set(part.line, (out.restocked.get(part.line) ?? 0) + part.quantity);
    }
  }
  return out;
}

/** The refunds by line of an order (its refund and void rows), read in the caller's transaction (under the order's lock). */
export async function refundedLines(db: DbOrTx, orderId: string, statuses: readonly string[] = ['approved', 'pending']): Promise<RefundedLines> {
  const rows = await db
    .select({ kind: p.kind, status: p.status, refundLines: p.refundLines, refundShipping: p.refundShipping })
    .from(p)
    .where(and(eq(p.orderId, orderId), inArray(p.kind, ['refund', 'void'])));
  return refundedLinesOf(rows, statuses);
}

/** The order's pricing a refund by line needs (cents), read in the caller's transaction. */
export async function orderPricingForRefund(
  db: DbOrTx,
  orderId: string,
): Promise<{ items: LineItem[]; discount: Cents; tax: Cents; shipping: Cents; shippingTax: Cents; total: Cents } | null> {
  const [row] = await db
    .select({ items: orders.items, discount: orders.discount, tax: orders.tax, shipping: orders.shipping, shippingTax: orders.shippingTax, total: orders.total })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row ?? null;
}

/** The items approved refunds by line put back in stock, per line index: cancelling the order puts back only the rest. */
export async function lineRestocksOf(db: DbOrTx, orderId: string): Promise<Map<number, number>> {
  return (await refundedLines(db, orderId, ['approved'])).restocked;
}
