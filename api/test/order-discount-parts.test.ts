/**
 * Migration order_discount_parts (issue 19): orders placed before the Subscribe & Save discount and the
 * promo code's discount were kept apart get their two parts where the checkout's pricing rule gives back
 * their discount exactly from the subtotal and the promo code's terms; any other keeps both parts 0 and
 * is shown as one "Discount" line. Run on a database of its own, migrated to just before, then to the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountLines } from '@nh/shared/pricing';
import type { Db } from '@nh/server/db/client';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/database-before-migration';

let before: DatabaseBeforeMigration;
let db: Db;

beforeAll(async () => {
  before = await databaseBeforeMigration('order_discount_parts');
  db = before.db;
});
afterAll(() => before?.drop());

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  db.$client.query<T>(text, values).then((r) => r.rows);

/** An order as the checkout stored it before this migration: one `discount`. */
async function oldOrder(o: { subtotal: string; discount: string; promoCode?: string | null; plan?: boolean }): Promise<string> {
  let planId: string | null = null;
  if (o.plan) {
    const [plan] = await q<{ id: string }>(
      `insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date) values ('p@example.com', 'Plan', '[]', '10.00', now()) returning id`,
    );
    planId = plan!.id;
  }
  const [row] = await q<{ id: string }>(
    `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, discount, shipping, tax, total, promo_code, subscription_id)
     values ('o@example.com', 'Old Order', '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}', '[]', $1, $2, '0', '0', '0', $3, $4) returning id`,
    [o.subtotal, o.discount, o.promoCode ?? null, planId],
  );
  return row!.id;
}

describe('migration order_discount_parts', () => {
  it('splits each old order’s discount where the pricing rule gives it back exactly, and leaves the rest as one "Discount"', async () => {
    await q(
      `insert into promo_codes (code, discount_type, discount_value) values ('WELCOME10', 'percentage', 10), ('SAVE5', 'fixed', 5), ('FREE100', 'percentage', 100)`,
    );
    const orders = {
      none: await oldOrder({ subtotal: '20.00', discount: '0' }),
      // Promo only: 10% of $39.99.
      promo: await oldOrder({ subtotal: '39.99', discount: '4.00', promoCode: 'WELCOME10' }),
      // A plan's first delivery with a code: 15% of $32.94 = $4.94, then 10% of $28.00 = $2.80 (the "−$7.74 under WELCOME10").
      planAndPromo: await oldOrder({ subtotal: '32.94', discount: '7.74', promoCode: 'WELCOME10', plan: true }),
      // A renewal: Subscribe & Save only.
      renewal: await oldOrder({ subtotal: '25.00', discount: '3.75', plan: true }),
      // A Subscribe & Save checkout whose charge failed has no plan, but its figures say what it was: $6.00 + $5.00.
      failedPlanCheckout: await oldOrder({ subtotal: '40.00', discount: '11.00', promoCode: 'SAVE5' }),
      // A 100% code fits both readings: the order's plan decides.
      freeWithoutPlan: await oldOrder({ subtotal: '20.00', discount: '20.00', promoCode: 'FREE100' }),
      freeWithPlan: await oldOrder({ subtotal: '20.00', discount: '20.00', promoCode: 'FREE100', plan: true }),
      // A code that no longer exists, and a discount no rule gives: not split.
      unknownCode: await oldOrder({ subtotal: '30.00', discount: '5.00', promoCode: 'GONE' }),
      noRule: await oldOrder({ subtotal: '30.00', discount: '1.23' }),
    };

    await before.migrateToEnd();

    const rows = await q<{ id: string; discount: string; s: string; p: string }>(
      'select id, discount::text as discount, subscribe_discount::text as s, promo_discount::text as p from orders',
    );
    const parts = Object.fromEntries(Object.entries(orders).map(([name, id]) => [name, rows.find((r) => r.id === id)!]));
    expect(Object.fromEntries(Object.entries(parts).map(([name, r]) => [name, [r.discount, r.s, r.p]]))).toEqual({
      none: ['0.00', '0.00', '0.00'],
      promo: ['4.00', '0.00', '4.00'],
      planAndPromo: ['7.74', '4.94', '2.80'],
      renewal: ['3.75', '3.75', '0.00'],
      failedPlanCheckout: ['11.00', '6.00', '5.00'],
      freeWithoutPlan: ['20.00', '0.00', '20.00'],
      freeWithPlan: ['20.00', '3.00', '17.00'],
      unknownCode: ['5.00', '0.00', '0.00'],
      noRule: ['1.23', '0.00', '0.00'],
    });

    // As the order pages and emails then show them.
    const [planAndPromo] = await db.query.orders.findMany({ where: (o, { eq }) => eq(o.id, orders.planAndPromo) });
    expect(discountLines(planAndPromo!, planAndPromo!.promoCode).map((l) => `${l.label} -${l.amount}`)).toEqual([
      'Subscribe & Save (15%) -494',
      'Discount (WELCOME10) -280',
    ]);
    const [unknown] = await db.query.orders.findMany({ where: (o, { eq }) => eq(o.id, orders.unknownCode) });
    expect(discountLines(unknown!, unknown!.promoCode).map((l) => `${l.label} -${l.amount}`)).toEqual(['Discount -500']);

    // From now on a part can never exceed the whole.
    await expect(q(`update orders set promo_discount = '5.00' where id = $1`, [orders.renewal])).rejects.toMatchObject({
      constraint: 'orders_discount_parts',
    });
  });
});
