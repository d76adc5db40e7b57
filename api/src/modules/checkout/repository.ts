/**
 * The order write path's SQL. Hand-written: an order is two round trips to Postgres. The first is
 * the whole reservation transaction sent as one simple query (claim the idempotency key, spend a
 * single-use promo code, insert the order as pending, take the stock, commit); the second records
 * the charge's outcome as one statement (for a Subscribe & Save order, the new subscription too):
 * those statements live in @nh/server (queries/payments.ts), shared with the workers' payment
 * reconciliation.
 * Refusals inside the transaction are raised by the guards of migration 0002 and so roll all of it back.
 */
import type pg from 'pg';
import { centsToDecimal, type Cents } from '@nh/shared';
import { sqlLiteral, type OrderRow } from '@nh/server';

// Literals for the simple protocol (a multi-statement query takes no parameters).
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError('integer literal: integers only');
  return String(value);
}
const intArray = (values: readonly number[]): string => `'{${values.map(integer).join(',')}}'::int[]`;

/** The order as the reservation inserts it (pending), its columns as the schema has them. */
export type PendingOrder = Pick<
  OrderRow,
  'id' | 'storeCode' | 'userId' | 'customerEmail' | 'customerName' | 'shippingAddress' | 'billingAddress' | 'items' | 'subtotal' | 'discount' | 'shipping' | 'tax' | 'total' | 'promoCode'
>;

/** One product's share of an order, with the price and variants (as read) the order was priced with. */
export interface StockLine {
  productId: number;
  quantity: number;
  priceText: string;
  variantsJson: string;
}

export interface Reservation {
  claim: { scope: string; key: string; requestHash: string };
  order: PendingOrder;
  /** One line per product, in any order (the guard locks rows in id order). */
  stock: StockLine[];
  /** A single-use promo code to spend for this order. */
  singleUsePromoId: number | null;
}

export type ReservationOutcome = 'reserved' | 'key-taken' | 'stock-or-price-changed' | 'promo-spent';

const dec = (cents: Cents) => centsToDecimal(cents);

/**
 * Runs the reservation transaction in one round trip and answers once it is on disk. The order row is
 * inserted before the stock is taken, so a best-selling product's row stays locked only while the
 * guard runs and the transaction commits, never across a round trip. Answers why it did not commit
 * when a guard refused.
 */
export async function reserveOrder(pool: pg.Pool, r: Reservation): Promise<ReservationOutcome> {
  const client = await pool.connect();
  try {
    const o = r.order;
    const orderValues = [
      sqlLiteral(client, o.id) + '::uuid',
      sqlLiteral(client, o.storeCode),
      o.userId === null ? 'null' : sqlLiteral(client, o.userId) + '::uuid',
      sqlLiteral(client, o.customerEmail),
      sqlLiteral(client, o.customerName),
      sqlLiteral(client, JSON.stringify(o.shippingAddress)) + '::jsonb',
      o.billingAddress ? sqlLiteral(client, JSON.stringify(o.billingAddress)) + '::jsonb' : 'null',
      sqlLiteral(client, JSON.stringify(o.items)) + '::jsonb',
      ...[o.subtotal, o.discount, o.shipping, o.tax, o.total].map((cents) => `${dec(cents)}::numeric`),
      sqlLiteral(client, o.promoCode),
    ];
    const prices = `array[${r.stock.map((l) => sqlLiteral(client, l.priceText)).join(', ')}]::numeric[]`;
    const variants = `array[${r.stock.map((l) => sqlLiteral(client, l.variantsJson)).join(', ')}]::jsonb[]`;
    const statements = [
      'begin',
      // Row locks are held until the commit ends: a synchronous commit would keep a best-selling
      // product's row locked through a disk flush, capping its sales at one per flush. The last
      // statement makes the order durable instead (see below).
      'set local synchronous_commit to off',
      `insert into idempotency_keys (scope, key, request_hash, order_id) values (${sqlLiteral(client, r.claim.scope)}, ${sqlLiteral(client, r.claim.key)}, ${sqlLiteral(client, r.claim.requestHash)}, ${sqlLiteral(client, o.id)}::uuid)`,
      r.singleUsePromoId === null ? null : `select spend_promo_code(${integer(r.singleUsePromoId)}, ${sqlLiteral(client, o.id)}::uuid)`,
      `insert into orders (id, store_code, user_id, customer_email, customer_name, shipping_address, billing_address, items,
        subtotal, discount, shipping, tax, total, promo_code, status) values (${orderValues.join(', ')}, 'pending')`,
      `select reserve_order_stock(${intArray(r.stock.map((l) => l.productId))}, ${intArray(r.stock.map((l) => l.quantity))}, ${prices}, ${variants})`,
      'commit',
      // After the commit, in the same message: a transaction that takes a transaction id commits
      // synchronously, and its flush covers every earlier commit (WAL is written in order). So the
      // answer arrives only once the order is on disk (no card is charged for an order a crash could
      // lose), and no row lock is held while waiting for the disk.
      'select txid_current()',
    ];
    try {
      await client.query(statements.filter(Boolean).join(';\n'));
      return 'reserved';
    } catch (error) {
      await client.query('rollback').catch(() => {});
      const { code, table } = error as { code?: string; table?: string };
      if (code === '23505' && table === 'idempotency_keys') return 'key-taken';
      if (code === 'NH409') return 'stock-or-price-changed';
      if (code === 'NH422') return 'promo-spent';
      throw error;
    }
  } finally {
    client.release();
  }
}
