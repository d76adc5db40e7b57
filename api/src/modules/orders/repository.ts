/**
 * The order write path's SQL. Hand-written, with named prepared statements where a statement stands
 * alone, and BEGIN/COMMIT riding along with the first and last statement of the reservation
 * transaction: one order is four round trips (claim, reserve, insert + commit, outcome).
 */
import type pg from 'pg';
import { centsToDecimal, outboxPayloads, toCents, type Cents, type OutboxTopic } from '@nh/shared';
import { OUTBOX_CHANNEL, type Address, type LineItem, type ProductVariant } from '@nh/shared/server';

export type Client = pg.PoolClient;

/**
 * The reservation transaction, on one pooled connection. Its BEGIN travels with its first statement
 * (`beginAndReserveStock`) and its COMMIT with its last (`insertPendingOrderAndCommit`), so the whole
 * transaction costs two round trips when no promo code is involved. Anything thrown rolls it back.
 */
export async function inReservationTransaction<T>(pool: pg.Pool, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** An int[] literal from values we checked are integers (simple-protocol statements take no parameters). */
function intArray(values: number[]): string {
  if (!values.every((v) => Number.isSafeInteger(v))) throw new TypeError('intArray: integers only');
  return `'{${values.join(',')}}'::int[]`;
}

const lit = (client: Client, value: string | null): string => (value === null ? 'null' : client.escapeLiteral(value));

export interface ReservedProduct {
  id: number;
  name: string;
  price: Cents;
  variants: ProductVariant[];
  sku: string | null;
  itemNumber: string | null;
}

/**
 * Opens the reservation transaction and takes `quantities[i]` units of product `ids[i]` (ids
 * distinct) if every one of them is active and has enough stock. The transaction commits without
 * waiting for the WAL flush (`synchronous_commit = off` for it alone): row locks are held until commit
 * ends, so on a hot row (a best-selling product's stock) a synchronous commit would cap sales of that
 * product at one per disk flush. Rows are locked in id order first, so two orders sharing products
 * cannot deadlock; the `inventory >= qty` test is re-checked on the locked row, so the last unit goes
 * to exactly one buyer. Answers the products it reserved: fewer than asked means roll back.
 */
export async function beginAndReserveStock(client: Client, ids: number[], quantities: number[]): Promise<ReservedProduct[]> {
  const results = (await client.query(`begin; set local synchronous_commit to off;
    with wanted as (select * from unnest(${intArray(ids)}, ${intArray(quantities)}) as w(id, qty)),
      locked as materialized (select p.id from products p join wanted w on w.id = p.id order by p.id for update of p)
      update products p set inventory = p.inventory - w.qty, updated_at = now()
      from wanted w
      where p.id = w.id and p.id in (select id from locked) and p.inventory >= w.qty and p.status = 'active'
      returning p.id, p.name, p.price::text as price, p.variants, p.sku, p.item_number`)) as unknown as Array<pg.QueryResult<{ id: number; name: string; price: string; variants: ProductVariant[]; sku: string | null; item_number: string | null }>>;
  const rows = results[results.length - 1]!.rows;
  return rows.map((r) => ({ id: r.id, name: r.name, price: toCents(r.price), variants: r.variants ?? [], sku: r.sku, itemNumber: r.item_number }));
}

export interface ProductAvailability {
  id: number;
  name: string;
  inventory: number;
  status: string;
}

export async function productAvailability(db: pg.Pool | Client, ids: number[]): Promise<ProductAvailability[]> {
  const { rows } = await db.query<ProductAvailability>({
    name: 'order_product_availability',
    text: 'select id, name, inventory, status::text as status from products where id = any($1::int[])',
    values: [ids],
  });
  return rows;
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

/** Spends a single-use code for an order; false when another order spent it first. */
export async function redeemPromo(client: Client, promoId: number, orderId: string): Promise<boolean> {
  const result = await client.query({
    name: 'promo_redeem',
    text: 'update promo_codes set redeemed_at = now(), redeemed_order_id = $2 where id = $1 and single_use and redeemed_at is null and is_active',
    values: [promoId, orderId],
  });
  return result.rowCount === 1;
}

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

const dec = (cents: Cents) => centsToDecimal(cents);

/** Inserts the order as `pending` and commits the reservation transaction, in one round trip. */
export async function insertPendingOrderAndCommit(client: Client, o: PendingOrder): Promise<void> {
  const values = [
    lit(client, o.id) + '::uuid',
    lit(client, o.storeCode),
    o.userId === null ? 'null' : lit(client, o.userId) + '::uuid',
    lit(client, o.customerEmail),
    lit(client, o.customerName),
    lit(client, JSON.stringify(o.shippingAddress)) + '::jsonb',
    o.billingAddress ? lit(client, JSON.stringify(o.billingAddress)) + '::jsonb' : 'null',
    lit(client, JSON.stringify(o.items)) + '::jsonb',
    ...[o.subtotal, o.discount, o.shipping, o.tax, o.total].map((cents) => `${dec(cents)}::numeric`),
    lit(client, o.promoCode),
  ];
  await client.query(`insert into orders (id, store_code, user_id, customer_email, customer_name, shipping_address, billing_address, items,
      subtotal, discount, shipping, tax, total, promo_code, status)
    values (${values.join(', ')}, 'pending'); commit`);
}

export interface PaymentRecord {
  orderId: string;
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

/** Inserted only when `ord` (the order's move out of pending) happened, so a retried statement never doubles anything. */
const PAYMENT_INSERT = `insert into payment_transactions (order_id, authnet_transaction_id, invoice_number, amount, status, response_code, response_message, card_type, card_last_four, environment)
        select $1::uuid, $2::text, $3::varchar, $4::numeric, $5::payment_status, $6::text, $7::text, $8::text, $9::varchar, $10::text where exists (select 1 from ord)`;

const paymentValues = (p: PaymentRecord) => [p.orderId, p.transactionId, p.invoiceNumber, dec(p.amount), p.status, p.responseCode, p.responseMessage, p.cardType, p.lastFour, p.environment];

/**
 * An accepted (or unknown) charge, as one statement and so one atomic commit: the payment row, the
 * order's next status (processing; pending while held for review or unknown), the outbox row with its
 * NOTIFY (the same contract as `recordOutbox`: a validated payload on the relay's channel), and the
 * idempotency answer.
 */
export async function recordAcceptedPayment(db: pg.Pool | Client, p: PaymentRecord, orderStatus: 'processing' | 'pending', outbox: OutboxRecord | null, answer: IdempotencyAnswer): Promise<void> {
  const payload = outbox ? JSON.stringify(outboxPayloads[outbox.topic].parse(outbox.payload)) : null;
  await db.query({
    name: 'order_record_accepted_payment',
    text: `with ord as (update orders set status = $11, payment_transaction_id = $2, updated_at = now() where id = $1 and status = 'pending' returning id),
      pay as (${PAYMENT_INSERT}),
      ob as (insert into outbox (topic, payload) select $12::text, $13::jsonb where $12::text is not null and exists (select 1 from ord)),
      idem as (update idempotency_keys set status_code = $16, response = $17, completed_at = now() where scope = $14 and key = $15)
      select case when $12::text is not null then pg_notify($18, $12::text) end`,
    values: [...paymentValues(p), orderStatus, outbox?.topic ?? null, payload, answer.scope, answer.key, answer.status, JSON.stringify(answer.body), OUTBOX_CHANNEL],
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
      locked as materialized (select id from products where id = any($11::int[]) and exists (select 1 from ord) order by id for update),
      stock as (
        update products p set inventory = p.inventory + w.qty, updated_at = now()
        from unnest($11::int[], $12::int[]) as w(id, qty) where p.id = w.id and p.id in (select id from locked)),
      promo as (
        update promo_codes set redeemed_at = null, redeemed_order_id = null where redeemed_order_id = $1 and exists (select 1 from ord)),
      idem as (update idempotency_keys set status_code = $15, response = $16, completed_at = now() where scope = $13 and key = $14)
      select 1`,
    values: [...paymentValues(p), productIds, quantities, answer.scope, answer.key, answer.status, JSON.stringify(answer.body)],
  });
}
