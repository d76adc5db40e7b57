/**
 * An order's payment state (issue 23): the one SQL rule the back office's order table shows and filters
 * by, and the order export writes. From the order's payment rows and its store credit:
 *
 * - `voided`: its card charge was voided (an approved void: always the whole charge);
 * - `refunded`: what was given back (approved card refunds, refunds to store credit) covers what was paid
 *   (the approved card charge and the credit applied);
 * - `partially_refunded`: something was given back, not all;
 * - `paid`: an approved charge (or store credit paid it), nothing given back;
 * - `unpaid`: none of these (pending, declined, held).
 *
 * Refunds in flight, declined or unknown do not count: the state says what happened. Written as SQL text
 * on an alias of `orders` so both the drizzle table query and the export's raw query use it.
 */
import { sql } from 'drizzle-orm';
import { PAYMENT_STATE_LABELS, PAYMENT_STATES, type PaymentState } from '@nh/shared/contracts/admin';

export { PAYMENT_STATES, type PaymentState };
import type { DbOrTx } from '../db/client';

/** Dollars (numeric) given back of the order `a`: approved card refunds and voids, and refunds to store credit. */
export const refundedDollarsSql = (a: string): string =>
  `((select coalesce(sum(pt.amount), 0) from payment_transactions pt where pt.order_id = ${a}.id and pt.kind in ('refund', 'void') and pt.status = 'approved')
   + (select coalesce(sum(e.amount_cents), 0) from store_credit_entries e where e.order_id = ${a}.id and e.kind = 'refund') / 100.0)`;

/** The payment state of the order `a` (one of PAYMENT_STATES). */
export const paymentStateSql = (a: string): string => `(case
  when exists (select 1 from payment_transactions v where v.order_id = ${a}.id and v.kind = 'void' and v.status = 'approved') then 'voided'
  when ${refundedDollarsSql(a)} > 0 and ${refundedDollarsSql(a)} >= ${paidDollarsSql(a)} then 'refunded'
  when ${refundedDollarsSql(a)} > 0 then 'partially_refunded'
  when ${paidDollarsSql(a)} > 0 or exists (select 1 from payment_transactions c where c.order_id = ${a}.id and c.kind = 'charge' and c.status = 'approved') then 'paid'
  else 'unpaid' end)`;

/** The payment state of the order `a` in staff's words (PAYMENT_STATE_LABELS), for the export. */
export const paymentStateWordsSql = (a: string): string =>
  `(case ${paymentStateSql(a)} ${PAYMENT_STATES.map((s) => `when '${s}' then '${PAYMENT_STATE_LABELS[s].replace(/'/g, "''")}'`).join(' ')} end)`;

/** Dollars paid of the order `a`: its approved card charge (the newest) and the store credit applied. */
const paidDollarsSql = (a: string): string =>
  `(coalesce((select c.amount from payment_transactions c where c.order_id = ${a}.id and c.kind = 'charge' and c.status = 'approved' order by c.created_at desc limit 1), 0) + ${a}.credit_applied)`;

/**
 * A filter by payment state on the order `a` (SQL text; the state is one of PAYMENT_STATES, checked here).
 * The states with something given back first narrow to the orders that have a refund row (a semi-join the
 * planner answers from the refunds, not by judging every order).
 */
export function paymentStateFilterSql(a: string, state: PaymentState): string {
  if (!PAYMENT_STATES.includes(state)) throw new RangeError(`Not a payment state: ${String(state)}`);
  const givenBack =
    state === 'paid' || state === 'unpaid'
      ? ''
      : `${a}.id in (select pt.order_id from payment_transactions pt where pt.kind in ('refund', 'void') and pt.status = 'approved' and pt.order_id is not null
           union select e.order_id from store_credit_entries e where e.kind = 'refund' and e.order_id is not null) and `;
  return `(${givenBack}${paymentStateSql(a)} = '${state}')`;
}

/** One order's payment state and what was given back (2-decimal string), by the same rule. */
export async function orderPaymentState(db: DbOrTx, orderId: string): Promise<{ paymentState: PaymentState; refunded: string }> {
  const { rows } = await db.execute<{ state: PaymentState; refunded: string }>(
    sql`select ${sql.raw(paymentStateSql('o'))} as state, (${sql.raw(refundedDollarsSql('o'))})::numeric(12, 2)::text as refunded from orders o where o.id = ${orderId}::uuid`,
  );
  return { paymentState: rows[0]?.state ?? 'unpaid', refunded: rows[0]?.refunded ?? '0.00' };
}
