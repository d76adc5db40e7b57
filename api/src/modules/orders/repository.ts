/**
 * The order write path's SQL. Hand-written: an order is two round trips to Postgres. The first is
 * the whole reservation transaction sent as one simple query (claim the idempotency key, spend a
 * single-use promo code, insert the order as pending, take the stock, commit); the second records
 * the charge's outcome as one statement (for a Subscribe & Save order, the new subscription too).
 * Refusals inside the transaction are raised by the guards of migration 0002 and so roll all of it back.
 */
import type pg from 'pg';
import { centsToDecimal, outboxPayloads, type Cents, type OutboxTopic } from '@nh/shared';
import type { SubscriptionInterval } from '@nh/shared/contracts/subscriptions';
import { OUTBOX_CHANNEL, sqlLiteral, type Address, type LineItem } from '@nh/shared/server';

export type Client = pg.PoolClient;

// Literals for the simple protocol (a multi-statement query takes no parameters).
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError('integer literal: integers only');
  return String(value);
}
const intArray = (values: readonly number[]): string => `'{${values.map(integer).join(',')}}'::int[]`;

export interface PendingOrder {
  id: string;
  storeCode: string;
  userId: string | null;
  customerEmail: string;
  customerName: string;
  shippingAddress: Address;
  billingAddress: Address | null;
  items: LineItem[];
  subtotal: Cents;
  discount: Cents;
  shipping: Cents;
  tax: Cents;
  total: Cents;
  promoCode: string | null;
}

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
      `insert into idempotency_keys (scope, key, request_hash) values (${sqlLiteral(client, r.claim.scope)}, ${sqlLiteral(client, r.claim.key)}, ${sqlLiteral(client, r.claim.requestHash)})`,
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

export interface PromoRow {
  id: number;
  code: string;
  discountType: string;
  discountValue: number;
  isActive: boolean;
  singleUse: boolean;
  redeemed: boolean;
}

export async function findPromo(db: pg.Pool | Client, code: string): Promise<PromoRow | null> {
  const { rows } = await db.query<{ id: number; code: string; discount_type: string; discount_value: number; is_active: boolean; single_use: boolean; redeemed: boolean }>({
    name: 'promo_find',
    text: 'select id, code, discount_type, discount_value, is_active, single_use, redeemed_at is not null as redeemed from promo_codes where code = $1',
    values: [code],
  });
  const r = rows[0];
  return r
    ? { id: r.id, code: r.code, discountType: r.discount_type, discountValue: r.discount_value, isActive: r.is_active, singleUse: r.single_use, redeemed: r.redeemed }
    : null;
}

export interface PaymentRecord {
  orderId: string;
  /** The subscription the charge pays for, with the billing period (yyyy-MM-dd) it pays. */
  subscriptionId: string | null;
  billingPeriod: string | null;
  transactionId: string | null;
  invoiceNumber: string;
  amount: Cents;
  status: 'pending' | 'approved' | 'declined' | 'error';
  responseCode: string | null;
  responseMessage: string;
  cardType: string | null;
  lastFour: string | null;
  environment: string;
}

export interface OutboxRecord {
  topic: OutboxTopic;
  payload: unknown;
}

export interface IdempotencyAnswer {
  scope: string;
  key: string;
  status: number;
  body: unknown;
}

/** A Subscribe & Save plan started by an accepted first charge, written in the same statement. */
export interface NewSubscription {
  id: string;
  userId: string;
  customerProfileId: string | null;
  paymentProfileId: string | null;
  customerEmail: string;
  customerName: string;
  items: LineItem[];
  interval: SubscriptionInterval;
  intervalCount: number;
  /** What each period charges. */
  amount: Cents;
  discountPercent: number;
  nextBillingDate: Date;
  shippingAddress: Address;
}

/** The row as JSON with the table's column names (read back with jsonb_populate_record). */
const subscriptionRow = (s: NewSubscription) => ({
  id: s.id,
  user_id: s.userId,
  authnet_customer_profile_id: s.customerProfileId,
  authnet_payment_profile_id: s.paymentProfileId,
  customer_email: s.customerEmail,
  customer_name: s.customerName,
  items: s.items,
  interval: s.interval,
  interval_count: s.intervalCount,
  amount: dec(s.amount),
  discount_percent: s.discountPercent,
  next_billing_date: s.nextBillingDate.toISOString(),
  status: 'active',
  shipping_address: s.shippingAddress,
});

/** Inserted only when `ord` (the order's move out of pending) happened, so a retried statement never doubles anything. */
const PAYMENT_INSERT = `insert into payment_transactions (order_id, authnet_transaction_id, invoice_number, amount, status, response_code, response_message, card_type, card_last_four, environment, subscription_id, billing_period)
        select $1::uuid, $2::text, $3::varchar, $4::numeric, $5::payment_status, $6::text, $7::text, $8::text, $9::varchar, $10::text, $11::uuid, $12::text where exists (select 1 from ord)`;

const paymentValues = (p: PaymentRecord) => [p.orderId, p.transactionId, p.invoiceNumber, dec(p.amount), p.status, p.responseCode, p.responseMessage, p.cardType, p.lastFour, p.environment, p.subscriptionId, p.billingPeriod];

/**
 * An accepted (or unknown) charge, as one statement and so one atomic commit: the payment row, the
 * order's next status (processing; pending while held for review or unknown), the new subscription
 * when the order starts one (the order and the payment row point at it), the outbox rows with their
 * NOTIFY (the same contract as `recordOutbox`: validated payloads, the relay's channel), and the
 * idempotency answer. Foreign keys are checked at the statement's end, so the order may point at the
 * subscription inserted beside it.
 */
export async function recordAcceptedPayment(
  db: pg.Pool | Client,
  p: PaymentRecord,
  orderStatus: 'processing' | 'pending',
  outbox: OutboxRecord[],
  answer: IdempotencyAnswer,
  subscription: NewSubscription | null = null,
): Promise<void> {
  const events = JSON.stringify(outbox.map((o) => ({ topic: o.topic, payload: outboxPayloads[o.topic].parse(o.payload) })));
  await db.query({
    name: 'order_record_accepted_payment',
    text: `with ord as (
        update orders set status = $13, payment_transaction_id = $2, subscription_id = ($14::jsonb->>'id')::uuid, updated_at = now()
        where id = $1 and status = 'pending' returning id),
      sub as (
        insert into subscriptions (id, user_id, authnet_customer_profile_id, authnet_payment_profile_id, customer_email, customer_name, items,
          interval, interval_count, amount, discount_percent, next_billing_date, status, shipping_address)
        select r.id, r.user_id, r.authnet_customer_profile_id, r.authnet_payment_profile_id, r.customer_email, r.customer_name, r.items,
          r.interval, r.interval_count, r.amount, r.discount_percent, r.next_billing_date, r.status, r.shipping_address
        from jsonb_populate_record(null::subscriptions, $14::jsonb) r where $14::jsonb is not null and exists (select 1 from ord)),
      pay as (${PAYMENT_INSERT}),
      ob as (
        insert into outbox (topic, payload) select e->>'topic', e->'payload' from jsonb_array_elements($15::jsonb) e where exists (select 1 from ord)),
      idem as (update idempotency_keys set status_code = $18, response = $19, completed_at = now() where scope = $16 and key = $17)
      select case when jsonb_array_length($15::jsonb) > 0 then pg_notify($20, $15::jsonb->0->>'topic') end`,
    values: [
      ...paymentValues(p),
      orderStatus,
      subscription ? JSON.stringify(subscriptionRow(subscription)) : null,
      events,
      answer.scope,
      answer.key,
      answer.status,
      JSON.stringify(answer.body),
      OUTBOX_CHANNEL,
    ],
  });
}

/**
 * A charge that failed, as one statement: records the payment row, cancels the order (it never
 * becomes a paid order, nor is it sent to NetSuite), puts its stock back (rows locked in id order,
 * like the reservation), gives back a single-use promo code it spent, and stores the answer.
 */
export async function recordFailedPayment(db: pg.Pool | Client, p: PaymentRecord, productIds: number[], quantities: number[], answer: IdempotencyAnswer): Promise<void> {
  await db.query({
    name: 'order_record_failed_payment',
    text: `with ord as (
        update orders set status = 'cancelled', netsuite_sync_status = 'not_applicable', updated_at = now()
        where id = $1 and status = 'pending' returning id),
      pay as (${PAYMENT_INSERT}),
      locked as materialized (select id from products where id = any($13::int[]) and exists (select 1 from ord) order by id for update),
      stock as (
        update products p set inventory = p.inventory + w.qty, updated_at = now()
        from unnest($13::int[], $14::int[]) as w(id, qty) where p.id = w.id and p.id in (select id from locked)),
      promo as (
        update promo_codes set redeemed_at = null, redeemed_order_id = null where redeemed_order_id = $1 and exists (select 1 from ord)),
      idem as (update idempotency_keys set status_code = $17, response = $18, completed_at = now() where scope = $15 and key = $16)
      select 1`,
    values: [...paymentValues(p), productIds, quantities, answer.scope, answer.key, answer.status, JSON.stringify(answer.body)],
  });
}
