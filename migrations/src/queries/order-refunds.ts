/**
 * An order's refunds as the shopper sees them (issue 23): on their order page and in the refund email.
 * Only what was given back counts: approved card refunds and voids, and refunds to store credit. A refund
 * still with the payment service, declined or unknown is not shown. Amounts in cents.
 */
import { sql } from 'drizzle-orm';
import type { Cents } from '@nh/shared/money';
import type { DbOrTx } from '../db/client';
import { refundedDollarsSql } from './payment-state';
import type { RefundLinePart } from '../db/schema';

export interface ShopperRefund {
  /** The payment row's id, or `credit:<ledger row id>`. */
  id: string;
  /** card: a refund after settlement; void: the card charge cancelled before it settled; credit: store credit. */
  method: 'card' | 'void' | 'credit';
  amount: Cents;
  lastFour: string | null;
  /** A refund by line: its lines (0-based index, quantity); null for a refund by amount. */
  lines: RefundLinePart[] | null;
  shipping: Cents;
  createdAt: Date;
}

/** Cents given back of an order (approved card refunds and voids, refunds to credit): a SQL expression on `orders` (qualified: drizzle leaves a column of the selected table bare). */
export const refundedCentsSql = sql<number>`round(${sql.raw(refundedDollarsSql('"orders"'))} * 100)::integer`;

/** The refunds given of an order, oldest first. */
export async function shopperRefundsOf(db: DbOrTx, orderId: string): Promise<ShopperRefund[]> {
  const { rows } = await db.execute<{
    id: string;
    method: 'card' | 'void' | 'credit';
    amount: number;
    last_four: string | null;
    lines: RefundLinePart[] | null;
    shipping: number;
    created_at: Date | string;
  }>(sql`
    select pt.id::text as id, case when pt.kind = 'void' then 'void' else 'card' end as method, round(pt.amount * 100)::integer as amount,
      pt.card_last_four as last_four, pt.refund_lines as lines, round(pt.refund_shipping * 100)::integer as shipping, pt.created_at
    from payment_transactions pt
    where pt.order_id = ${orderId}::uuid and pt.kind in ('refund', 'void') and pt.status = 'approved'
    union all
    select 'credit:' || e.id::text, 'credit', e.amount_cents, null, null, 0, e.created_at
    from store_credit_entries e
    where e.order_id = ${orderId}::uuid and e.kind = 'refund'
    order by created_at, id`);
  return rows.map((r) => ({
    id: r.id,
    method: r.method,
    amount: Number(r.amount),
    lastFour: r.last_four,
    lines: r.lines,
    shipping: Number(r.shipping),
    createdAt: new Date(r.created_at),
  }));
}
