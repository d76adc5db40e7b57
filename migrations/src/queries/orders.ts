/**
 * Order reads shared across processes, typed from the schema (money columns arrive as integer cents).
 * Each is a drizzle prepared statement, named so PostgreSQL plans it once per connection: the workers
 * read an order for every confirmation email and shipping notice.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, type OrderRow } from '../db/schema';

/** What an order confirmation shows. */
export type ConfirmationOrder = Pick<OrderRow, 'id' | 'customerEmail' | 'customerName' | 'items' | 'subtotal' | 'discount' | 'shipping' | 'tax' | 'total' | 'promoCode'>;

/** What a shipping notice shows, and whether the order is (still) shipped. */
export type ShippedOrder = Pick<OrderRow, 'id' | 'customerEmail' | 'customerName' | 'items' | 'shippingAddress' | 'carrier' | 'trackingNumber' | 'status'>;

const byId = eq(orders.id, sql.placeholder('id'));

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  const o = orders;
  return {
    confirmation: db
      .select({ id: o.id, customerEmail: o.customerEmail, customerName: o.customerName, items: o.items, subtotal: o.subtotal, discount: o.discount, shipping: o.shipping, tax: o.tax, total: o.total, promoCode: o.promoCode })
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

export async function findOrderForConfirmation(db: Db, id: string): Promise<ConfirmationOrder | undefined> {
  return (await statements(db).confirmation.execute({ id }))[0];
}

export async function findOrderForShippingNotice(db: Db, id: string): Promise<ShippedOrder | undefined> {
  return (await statements(db).shipped.execute({ id }))[0];
}
