/**
 * The orders aggregate.
 *
 * Reads shared across processes, typed from the schema (money columns arrive as integer cents). Each
 * is a drizzle prepared statement, named so PostgreSQL plans it once per connection: the workers read
 * an order for every confirmation email and shipping notice.
 *
 * Writes of a new order, hand-written (the checkout benchmark): the checkout's reservation, the whole
 * transaction sent as one simple query in one round trip (claim the idempotency key, spend a
 * single-use promo code, insert the order as pending, take the stock, commit; the charge's outcome is
 * then one statement of payments.ts); refusals inside it are raised by the guards of migration 0002
 * and so roll all of it back. And a renewal's pending order, inserted under the plan's row lock.
 */
import type pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { centsToDecimal, toCents, type Cents } from '@nh/shared/money';
import { sqlLiteral, type Db } from '../db/client';
import { orders, type OrderRow } from '../db/schema';
import { STOCK_REFUSED } from './stock';
import { orderSpendReference } from './store-credit';

/** Spends the shopper's credit on the order, up to its total, and writes what it paid on the order. */
function creditSpendSql(client: pg.PoolClient, userId: string, orderId: string, total: Cents): string {
  const order = sqlLiteral(client, orderId) + '::uuid';
  return `update orders set credit_applied = s.spent::numeric / 100 from (select store_credit_spend_up_to(${sqlLiteral(client, userId)}::uuid, ${integer(total)}, ${order}, null, ${sqlLiteral(client, orderSpendReference(orderId))}) as spent) s where orders.id = ${order}`;
}

/** The part of an order's total its store credit paid, in cents. */
export async function orderCreditApplied(pool: pg.Pool, orderId: string): Promise<Cents> {
  const { rows } = await pool.query<{ credit_applied: string }>('select credit_applied::text from orders where id = $1', [orderId]);
  return rows[0] ? toCents(rows[0].credit_applied) : 0;
}

/** What an order confirmation shows. */
export type ConfirmationOrder = Pick<
  OrderRow,
  'id' | 'customerEmail' | 'customerName' | 'items' | 'subtotal' | 'discount' | 'subscribeDiscount' | 'promoDiscount' | 'shipping' | 'tax' | 'total' | 'promoCode' | 'shippingAddress' | 'shippingMethod'
>;

/** What a shipping notice shows, and whether the order is (still) shipped. */
export type ShippedOrder = Pick<OrderRow, 'id' | 'customerEmail' | 'customerName' | 'items' | 'shippingAddress' | 'carrier' | 'trackingNumber' | 'status'>;

const byId = eq(orders.id, sql.placeholder('id'));

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  const o = orders;
  return {
    confirmation: db
      .select({
        id: o.id,
        customerEmail: o.customerEmail,
        customerName: o.customerName,
        items: o.items,
        subtotal: o.subtotal,
        discount: o.discount,
        subscribeDiscount: o.subscribeDiscount,
        promoDiscount: o.promoDiscount,
        shipping: o.shipping,
        tax: o.tax,
        total: o.total,
        promoCode: o.promoCode,
        shippingAddress: o.shippingAddress,
        shippingMethod: o.shippingMethod,
        replacementOfOrderId: o.replacementOfOrderId,
      })
      .from(o)
      .where(byId)
      .prepare('orders_for_confirmation'),
    shipped: db
      .select({ id: o.id, customerEmail: o.customerEmail, customerName: o.customerName, items: o.items, shippingAddress: o.shippingAddress, carrier: o.carrier, trackingNumber: o.trackingNumber, status: o.status })
      .from(o)
      .where(byId)
      .prepare('orders_for_shipping_notice'),
  };
}
const statements = (db: Db) => {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
};

/** With the order a damage claim's replacement replaces (issue 23), null for any other order. */
export async function findOrderForConfirmation(db: Db, id: string): Promise<(ConfirmationOrder & Pick<OrderRow, 'replacementOfOrderId'>) | undefined> {
  return (await statements(db).confirmation.execute({ id }))[0];
}

export async function findOrderForShippingNotice(db: Db, id: string): Promise<ShippedOrder | undefined> {
  return (await statements(db).shipped.execute({ id }))[0];
}

// ---- The checkout's reservation (api: checkout) ----

// Literals for the simple protocol (a multi-statement query takes no parameters).
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError('integer literal: integers only');
  return String(value);
}
const intArray = (values: readonly number[]): string => `'{${values.map(integer).join(',')}}'::int[]`;

/**
 * The order as the reservation inserts it (pending), its columns as the schema has them. Its discount
 * comes in its two parts (Subscribe & Save, promo); `discount` is written as their sum (`discountOf`).
 */
export type PendingOrder = Pick<
  OrderRow,
  'id' | 'storeCode' | 'userId' | 'customerEmail' | 'customerName' | 'shippingAddress' | 'billingAddress' | 'items' | 'subtotal' | 'subscribeDiscount' | 'promoDiscount' | 'shipping' | 'tax' | 'total' | 'promoCode'
> &
  /** Issue 25: the delivery chosen, the part of `tax` due on shipping and where the tax came from (absent: standard, 0, null). */
  Partial<Pick<OrderRow, 'shippingMethod' | 'shippingTax' | 'taxSource'>>;

/** An order's whole discount: its Subscribe & Save part plus its promo part. */
const discountOf = (o: Pick<OrderRow, 'subscribeDiscount' | 'promoDiscount'>): Cents => o.subscribeDiscount + o.promoDiscount;

/** One product's share of an order, with the price and variants (as read) the order was priced with. */
export interface PricedStockLine {
  productId: number;
  quantity: number;
  priceText: string;
  variantsJson: string;
}

export interface Reservation {
  claim: { scope: string; key: string; requestHash: string };
  order: PendingOrder;
  /** One line per product, in any order (the guard locks rows in id order). */
  stock: PricedStockLine[];
  /** A single-use promo code to spend for this order. */
  singleUsePromoId: number | null;
  /**
   * Store credit (issue 23): the signed-in shopper whose credit pays the order first. Spent in this
   * transaction, up to the total, under the balance row's lock; what it paid is the order's
   * `credit_applied` (read it with `orderCreditApplied`). Absent or null: no credit.
   */
  creditUserId?: string | null;
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
      ...[o.subtotal, discountOf(o), o.subscribeDiscount, o.promoDiscount, o.shipping, o.tax, o.total].map((cents) => `${dec(cents)}::numeric`),
      sqlLiteral(client, o.promoCode),
      sqlLiteral(client, o.shippingMethod ?? 'standard'),
      `${dec(o.shippingTax ?? 0)}::numeric`,
      sqlLiteral(client, o.taxSource ?? null),
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
        subtotal, discount, subscribe_discount, promo_discount, shipping, tax, total, promo_code, shipping_method, shipping_tax, tax_source, status) values (${orderValues.join(', ')}, 'pending')`,
      `select reserve_order_stock(${intArray(r.stock.map((l) => l.productId))}, ${intArray(r.stock.map((l) => l.quantity))}, ${prices}, ${variants})`,
      // The balance row is locked last (after the stock), as every ledger write of an order does.
      r.creditUserId ? creditSpendSql(client, r.creditUserId, o.id, o.total) : null,
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
      if (code === STOCK_REFUSED) return 'stock-or-price-changed';
      if (code === 'NH422') return 'promo-spent';
      throw error;
    }
  } finally {
    client.release();
  }
}

// ---- A renewal's order (workers: renewals) ----

/**
 * A renewal's order as inserted (pending), its columns as the schema has them. Its whole `discount` may
 * be more than its parts: the price lock that holds the plan's agreed amount (shared/pricing.ts
 * priceRenewal) is the rest, shown as "Discount".
 */
export type RenewalOrder = Pick<
  OrderRow,
  'storeCode' | 'userId' | 'customerEmail' | 'customerName' | 'shippingAddress' | 'items' | 'subtotal' | 'discount' | 'subscribeDiscount' | 'promoDiscount' | 'shipping' | 'tax' | 'total'
> & {
  subscriptionId: string;
} & Partial<Pick<OrderRow, 'shippingTax' | 'taxSource'>>;

export async function insertPendingOrder(client: pg.PoolClient, o: RenewalOrder): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into orders (store_code, user_id, customer_email, customer_name, shipping_address, items, subtotal, discount, subscribe_discount, promo_discount, shipping, tax, total, status, subscription_id,
       shipping_method, shipping_tax, tax_source)
     values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, 'pending', $14, 'standard', $15, $16) returning id`,
    [
      o.storeCode,
      o.userId,
      o.customerEmail,
      o.customerName,
      JSON.stringify(o.shippingAddress),
      JSON.stringify(o.items),
      ...[o.subtotal, o.discount, o.subscribeDiscount, o.promoDiscount, o.shipping, o.tax, o.total].map(centsToDecimal),
      o.subscriptionId,
      centsToDecimal(o.shippingTax ?? 0),
      o.taxSource ?? null,
    ],
  );
  return rows[0]!.id;
}
