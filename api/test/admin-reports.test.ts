/**
 * The sales reports (issue 23) on a database of their own, a small known dataset around a range and its
 * previous period (the boundaries' first and last seconds included): sales, orders, average order, units,
 * refunds and net revenue; top products; new vs returning customers; subscription vs one-time revenue;
 * the 400s of a bad range; and the subscriptions report (MRR now, movement and churn summed from the
 * daily movements stored with the snapshots, cancellations by reason and the save rate). The four order reports read the daily summary
 * (migration report_summary): each is compared with the same figures counted live from the orders, on the
 * first data and again after writes after the fact (a late card refund, a refund to store credit through
 * the staff endpoint, a refund approved later, an order paid later, a paid order cancelled).
 */
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomersReport, RevenueMixReport, SalesReport, StockCoverReport, SubscriptionsReport, TopProductsReport } from '@nh/shared/contracts/admin-reports';
import { CANCEL_REASONS } from '@nh/shared/contracts/cancellation';
import { writeSubscriptionSnapshot } from '@nh/server/queries/subscription-snapshots';
import { inPoolTransaction } from '@nh/server/queries/transaction';
import { NO_REASON } from '../src/modules/admin/reports/cancellations';
import { REPORT_MESSAGES } from '@nh/shared/contracts/admin-reports';
import { customerFigures, revenueMix, salesFigures, topProducts, type Periods } from '@nh/server/queries/sales-reports';
import { catchUpReportSummary, reportSummaryBacklog } from '@nh/server/queries/report-summary';
import { comparableRows as nonZero, liveCustomerFigures, liveRevenueMix, liveSalesFigures, liveTopProducts } from '@nh/server/testing/live-sales-reports';
import { randomUUID } from 'node:crypto';
import { signUpShopper } from './support/shopper';
import { withFreshDatabase } from './support/fresh-database';
import type { TestApi } from './support/harness';
import { signInAs } from './support/staff';

const FROM = '2026-03-01';
const TO = '2026-03-10';
const line = (productId: number, productName: string, quantity: number, price: string) => ({ productId, productName, quantity, price, sku: null, variantSku: null, itemNumber: null });

/** An order as placed, on the pool or on `client` (a transaction of the test's own). */
async function order(api: TestApi, f: { email: string; total: string; status: string; at: string; items?: unknown[]; plan?: string; userId?: string }, client: pg.Pool | pg.PoolClient = api.ctx.db.$client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, created_at, subscription_id, user_id)
     values ('NH', $1, 'Shopper', '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', $2, $3, 0, 0, $3, $4, $5, $6, $7) returning id`,
    [f.email, JSON.stringify(f.items ?? []), f.total, f.status, f.at, f.plan ?? null, f.userId ?? null],
  );
  return rows[0]!.id;
}

/**
 * The order's charge and a refund or void of it, written as the back office's refund flow writes one: the
 * order row locked first (refunds.ts, then the customer's figures and the summary lock the rest in the
 * shared order), so it takes turns with a cancellation of the same order instead of deadlocking with it.
 */
async function givenBack(api: TestApi, orderId: string, total: string, kind: 'refund' | 'void', amount: string, status = 'approved') {
  await inPoolTransaction(api.ctx.db, async (client) => {
    await client.query('select 1 from orders where id = $1 for update', [orderId]);
    const { rows } = await client.query<{ id: string }>(`insert into payment_transactions (order_id, kind, amount, status) values ($1, 'charge', $2, 'approved') returning id`, [orderId, total]);
    await client.query(`insert into payment_transactions (order_id, parent_id, kind, amount, status) values ($1, $2, $3, $4, $5)`, [orderId, rows[0]!.id, kind, amount, status]);
  });
}

/** Each report's rows from the summary and counted live from the orders, for the test to compare. */
async function summaryAndLive(api: TestApi, p: Periods) {
  const pool = api.ctx.db.$client;
  return {
    sales: [nonZero(await salesFigures(pool, p)), nonZero(await liveSalesFigures(pool, p))],
    topProducts: [await topProducts(pool, p, 50), await liveTopProducts(pool, p, 50)],
    customers: [nonZero(await customerFigures(pool, p)), nonZero(await liveCustomerFigures(pool, p))],
    revenueMix: [nonZero(await revenueMix(pool, p)), nonZero(await liveRevenueMix(pool, p))],
  };
}

/** The test's range and a wider one (February and March, beside December and January). */
const COMPARED: Periods[] = [
  { storeCode: 'NH', previousFrom: '2026-02-19', from: FROM, to: TO },
  { storeCode: 'NH', previousFrom: '2025-12-03', from: '2026-02-01', to: '2026-03-31' },
];

describe('the sales reports', () => {
  const answers: Record<string, { status: number; body: unknown }> = {};
  const compared: Array<{ label: string; p: Periods; figures: Awaited<ReturnType<typeof summaryAndLive>> }> = [];

  beforeAll(async () => {
    await withFreshDatabase(async (api) => {
      const { rows: plan } = await api.ctx.db.$client.query<{ id: string }>(
        `insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date) values ('b@example.com', 'B', '[]', 30, now()) returning id`,
      );
      // The range (Mar 1-10): A new customer, B returning (a plan's renewal, partly refunded), C voided in full.
      await order(api, { email: 'a@example.com', total: '40.00', status: 'processing', at: `${FROM}T00:00:00Z`, items: [line(1, 'Flush', 2, '12.00'), line(2, 'Dish Pods', 1, '10.00')] });
      const b = await order(api, { email: 'b@example.com', total: '30.00', status: 'delivered', at: `${TO}T23:59:59Z`, items: [line(1, 'Flush Cleaner', 1, '20.00')], plan: plan[0]!.id });
      await givenBack(api, b, '30.00', 'refund', '10.00');
      await givenBack(api, b, '30.00', 'refund', '5.00', 'declined'); // not given back
      const c = await order(api, { email: 'c@example.com', total: '25.00', status: 'shipped', at: '2026-03-05T12:00:00Z', items: [line(3, 'Soap', 5, '5.00')] });
      await givenBack(api, c, '25.00', 'void', '25.00');
      await order(api, { email: 'd@example.com', total: '99.00', status: 'pending', at: '2026-03-05T12:00:00Z', items: [line(1, 'Flush', 9, '11.00')] }); // unpaid
      await order(api, { email: 'd@example.com', total: '50.00', status: 'cancelled', at: '2026-03-06T12:00:00Z', items: [line(1, 'Flush', 9, '11.00')] });
      await order(api, { email: 'e@example.com', total: '100.00', status: 'shipped', at: '2026-03-11T00:00:00Z', items: [line(1, 'Flush', 9, '11.00')] }); // after
      // The previous period (Feb 19-28): B's second order; B's first is before it (so B returns in both).
      await order(api, { email: 'b@example.com', total: '20.00', status: 'shipped', at: '2026-02-28T23:59:59Z', items: [line(2, 'Dish Pods', 3, '5.00')] });
      await order(api, { email: 'b@example.com', total: '60.00', status: 'shipped', at: '2026-02-18T23:59:59Z', items: [line(2, 'Dish Pods', 9, '5.00')] }); // before

      const manager = await signInAs(api, 'manager');
      const support = await signInAs(api, 'support');
      const get = async (who: typeof manager, path: string) => {
        const res = await who.request(path);
        return { status: res.status, body: (await res.json()) };
      };
      for (const name of ['sales', 'top-products', 'customers', 'revenue-mix']) answers[name] = await get(manager, `/api/admin/reports/${name}?from=${FROM}&to=${TO}`);
      answers.support = await get(support, `/api/admin/reports/sales?from=${FROM}&to=${TO}`);
      answers.reversed = await get(manager, `/api/admin/reports/sales?from=${TO}&to=${FROM}`);
      answers.notADay = await get(manager, `/api/admin/reports/customers?from=2026-02-30&to=${TO}`);
      answers.missing = await get(manager, `/api/admin/reports/revenue-mix?to=${TO}`);
      answers.tooLong = await get(manager, `/api/admin/reports/top-products?from=2025-01-01&to=2026-01-02`);
      answers.yearOk = await get(manager, `/api/admin/reports/sales?from=2025-01-01&to=2026-01-01`);
      answers.badLimit = await get(manager, `/api/admin/reports/top-products?from=${FROM}&to=${TO}&limit=0`);
      answers.limitOne = await get(manager, `/api/admin/reports/top-products?from=${FROM}&to=${TO}&limit=1`);
      for (const p of COMPARED) compared.push({ label: 'as placed', p, figures: await summaryAndLive(api, p) });

      // After the fact: a card refund recorded today of A's order of March 1 (counted on the order's day),
      // a refund to store credit through the staff endpoint of G's order (an account's, March 4), a
      // refund of B's approved later, D's pending order paid, B's order of February 28 cancelled.
      const pool = api.ctx.db.$client;
      const a = (await pool.query<{ id: string }>(`select id from orders where customer_email = 'a@example.com'`)).rows[0]!.id;
      await givenBack(api, a, '40.00', 'refund', '5.00');
      const shopper = await signUpShopper(api, 'reports-credit');
      const g = await order(api, { email: shopper.email, userId: shopper.id, total: '50.00', status: 'processing', at: '2026-03-04T10:00:00Z', items: [line(4, 'Sponge', 2, '25.00')] });
      await pool.query(`insert into payment_transactions (order_id, kind, amount, status) values ($1, 'charge', 50, 'approved')`, [g]);
      const credit = await manager.request(`/api/admin/orders/${g}/refunds`, {
        method: 'POST',
        body: { storeCode: 'NH', amount: '20.00', reason: 'Leaking refill', method: 'credit', restock: false, notify: false },
        headers: { 'idempotency-key': randomUUID() },
      });
      answers.creditRefund = { status: credit.status, body: await credit.json() };
      const { rows: later } = await pool.query<{ id: string }>(
        `insert into payment_transactions (order_id, parent_id, kind, amount, status) select order_id, id, 'refund', 10, 'pending' from payment_transactions where order_id = $1 and kind = 'charge' limit 1 returning id`,
        [b],
      );
      await pool.query(`update payment_transactions set status = 'approved' where id = $1`, [later[0]!.id]);
      await pool.query(`update orders set status = 'processing' where customer_email = 'd@example.com' and status = 'pending'`);
      await pool.query(`update orders set status = 'cancelled' where customer_email = 'b@example.com' and created_at = '2026-02-28T23:59:59Z'`);
      // H names product 2 anew on March 9, then is voided in full: the name goes back to the latest kept line's (A's).
      const h = await order(api, { email: 'h@example.com', total: '15.00', status: 'shipped', at: '2026-03-09T12:00:00Z', items: [line(2, 'Dish Pods, Lemon', 1, '15.00')] });
      await givenBack(api, h, '15.00', 'void', '15.00');
      for (const name of ['sales', 'top-products', 'customers', 'revenue-mix']) answers[`after ${name}`] = await get(manager, `/api/admin/reports/${name}?from=${FROM}&to=${TO}`);
      for (const p of COMPARED) compared.push({ label: 'after the fact', p, figures: await summaryAndLive(api, p) });
    });
  });

  it('the summary answers exactly what the orders say, as placed and after refunds, payments and cancellations after the fact', () => {
    expect(compared).toHaveLength(4);
    for (const { label, p, figures } of compared) {
      for (const [report, [summary, live]] of Object.entries(figures)) {
        expect({ label, from: p.from, report, rows: summary }).toEqual({ label, from: p.from, report, rows: live });
      }
    }
  });

  it('after the fact: a late refund counts on the order\'s day, a refund to store credit is given back like a card refund', () => {
    expect(answers.creditRefund!.status).toBe(201);
    // Sold: A 40 + B 30 + C 25 + D 99 (paid later) + G 50 + H 15. Given back: A 5 (late), B 10 + 10 (approved later), C 25 (void), G 20 (store credit), H 15 (void).
    expect((answers['after sales']!.body as SalesReport).current).toEqual({ salesCents: 25900, orders: 4, averageOrderCents: 4350, units: 15, refundsCents: 8500, netRevenueCents: 17400 });
    // B's order of February 28 cancelled: the previous period has nothing.
    expect((answers['after sales']!.body as SalesReport).previous).toEqual({ salesCents: 0, orders: 0, averageOrderCents: 0, units: 0, refundsCents: 0, netRevenueCents: 0 });
    expect((answers['after top-products']!.body as TopProductsReport).products).toEqual([
      { productId: 1, name: 'Flush Cleaner', units: 12, salesCents: 14300, previousUnits: 0, previousSalesCents: 0 },
      { productId: 4, name: 'Sponge', units: 2, salesCents: 5000, previousUnits: 0, previousSalesCents: 0 },
      { productId: 2, name: 'Dish Pods', units: 1, salesCents: 1000, previousUnits: 0, previousSalesCents: 0 },
    ]);
    // D's first paid order is now March 5 (new), G's March 4 (new); B returns.
    expect((answers['after customers']!.body as CustomersReport).current).toEqual({ newCustomers: 3, returningCustomers: 1, newOrders: 3, returningOrders: 1, newRevenueCents: 16400, returningRevenueCents: 1000 });
    expect((answers['after revenue-mix']!.body as RevenueMixReport).current).toEqual({ subscriptionOrders: 1, subscriptionRevenueCents: 1000, oneTimeOrders: 3, oneTimeRevenueCents: 16400 });
  });

  it('sales: gross sales, orders kept, average order, units, refunds and net revenue, beside the previous period', () => {
    expect(answers.sales!.status).toBe(200);
    const report = answers.sales!.body as SalesReport;
    expect(report).toMatchObject({ from: FROM, to: TO, previousFrom: '2026-02-19', previousTo: '2026-02-28' });
    // A 40 + B 30 + C 25 sold; B's 10 refunded and C's 25 voided given back; C (voided in full) is no order.
    expect(report.current).toEqual({ salesCents: 9500, orders: 2, averageOrderCents: 3000, units: 4, refundsCents: 3500, netRevenueCents: 6000 });
    expect(report.previous).toEqual({ salesCents: 2000, orders: 1, averageOrderCents: 2000, units: 3, refundsCents: 0, netRevenueCents: 2000 });
  });

  it('top products: units and line sales by product, most units first, the latest name, the previous period beside', () => {
    const report = answers['top-products']!.body as TopProductsReport;
    expect(report.products).toEqual([
      { productId: 1, name: 'Flush Cleaner', units: 3, salesCents: 4400, previousUnits: 0, previousSalesCents: 0 },
      { productId: 2, name: 'Dish Pods', units: 1, salesCents: 1000, previousUnits: 3, previousSalesCents: 1500 },
    ]);
    expect((answers.limitOne!.body as TopProductsReport).products.map((p) => p.productId)).toEqual([1]);
  });

  it('customers: new (first paid order in the period) vs returning, with their orders and net revenue', () => {
    const report = answers.customers!.body as CustomersReport;
    expect(report.current).toEqual({ newCustomers: 1, returningCustomers: 1, newOrders: 1, returningOrders: 1, newRevenueCents: 4000, returningRevenueCents: 2000 });
    expect(report.previous).toEqual({ newCustomers: 0, returningCustomers: 1, newOrders: 0, returningOrders: 1, newRevenueCents: 0, returningRevenueCents: 2000 });
  });

  it("revenue mix: a plan's orders vs one-time orders, net", () => {
    const report = answers['revenue-mix']!.body as RevenueMixReport;
    expect(report.current).toEqual({ subscriptionOrders: 1, subscriptionRevenueCents: 2000, oneTimeOrders: 1, oneTimeRevenueCents: 4000 });
    expect(report.previous).toEqual({ subscriptionOrders: 0, subscriptionRevenueCents: 0, oneTimeOrders: 1, oneTimeRevenueCents: 2000 });
  });

  it('support may not read the reports; a bad range is a 400 saying what to fix', () => {
    expect(answers.support!.status).toBe(403);
    expect(answers.reversed).toMatchObject({ status: 400, body: { message: REPORT_MESSAGES.order } });
    expect(answers.notADay).toMatchObject({ status: 400, body: { message: REPORT_MESSAGES.from } });
    expect(answers.missing).toMatchObject({ status: 400, body: { message: REPORT_MESSAGES.from } });
    expect(answers.tooLong).toMatchObject({ status: 400, body: { message: REPORT_MESSAGES.span } });
    expect(answers.yearOk!.status).toBe(200);
    expect(answers.badLimit).toMatchObject({ status: 400, body: { message: REPORT_MESSAGES.limit } });
  });
});

describe('the daily summary under concurrent writes', () => {
  const compared: Array<Awaited<ReturnType<typeof summaryAndLive>>> = [];

  beforeAll(async () => {
    await withFreshDatabase(async (api) => {
      const pool = api.ctx.db.$client;
      // 12 orders of one day by 4 customers, then at once: each refunded (two in full), four cancelled, four more placed.
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await order(api, { email: `c${i % 4}@example.com`, total: '30.00', status: 'processing', at: `2026-03-0${1 + (i % 3)}T1${i % 10}:00:00Z`, items: [line(1 + (i % 2), `P${i % 2}`, 1 + i, '1.00')] }));
      await Promise.all([
        ...ids.map((id, i) => givenBack(api, id, '30.00', i % 5 === 0 ? 'void' : 'refund', i % 5 === 0 ? '30.00' : `${i}.00`)),
        ...ids.filter((_, i) => i % 3 === 1).map((id) => pool.query(`update orders set status = 'cancelled' where id = $1`, [id])),
        ...[0, 1, 2, 3].map((i) => order(api, { email: `c${i}@example.com`, total: '12.00', status: 'shipped', at: `2026-03-02T0${i}:00:00Z`, items: [line(3, 'P3', 2, '6.00')] })),
      ]);
      for (const p of COMPARED) compared.push(await summaryAndLive(api, p));
    });
  });

  it('adds every write to the day exactly once (no deadlock, nothing lost)', () => {
    expect(compared).toHaveLength(2);
    for (const figures of compared) {
      expect(figures.sales[0]!.length).toBeGreaterThan(0);
      for (const [summary, live] of Object.values(figures)) expect(summary).toEqual(live);
    }
  });
});

describe("the daily summary: a checkout never waits for it, and concurrent catch-ups do not queue on the day's row", () => {
  const seen: {
    secondWaited: unknown;
    summaryBefore: number;
    pendingBefore: number;
    countedBefore: number;
    countedAfter: number;
    catchUpWaited: unknown;
    slots: number[];
    afterSlots: number[];
    pendingAfter: number;
    march?: unknown;
    figures: Array<Awaited<ReturnType<typeof summaryAndLive>>>;
  } = { secondWaited: null, summaryBefore: -1, pendingBefore: -1, countedBefore: -1, countedAfter: -1, catchUpWaited: null, slots: [], afterSlots: [], pendingAfter: -1, figures: [] };

  beforeAll(async () => {
    // No worker runs on a fresh database: the test's own calls are its only catch-ups.
    await withFreshDatabase(async (api) => {
      const pool = api.ctx.db.$client;
      const flush = { total: '20.00', status: 'processing', items: [line(1, 'Flush', 2, '10.00')] };
      const first = await pool.connect();
      const second = await pool.connect();
      const waited = (error: { code?: string }) => error.code;
      try {
        // The first checkout of March 3 has not committed yet; the second, on the same day, product and
        // store, must not wait for it (300 ms: far more than it takes).
        await first.query('begin');
        await order(api, { ...flush, email: 'first@example.com', at: '2026-03-03T10:00:00Z' }, first);
        await second.query('begin');
        await second.query(`set local lock_timeout = '300ms'`);
        seen.secondWaited = await order(api, { ...flush, email: 'second@example.com', at: '2026-03-03T11:00:00Z' }, second).then(() => false, waited);
        await second.query('commit');
        await first.query('commit');
        // Both are noted (each order: its customer's figures wait for the same catch-up), and neither wrote
        // the summary or the customer's figures.
        seen.summaryBefore = (await pool.query<{ n: number }>(`select count(*)::int as n from order_daily_facts`)).rows[0]!.n;
        seen.pendingBefore = await reportSummaryBacklog(pool);
        seen.countedBefore = (await pool.query<{ n: number }>(`select coalesce(sum(order_count), 0)::int as n from customers`)).rows[0]!.n;
        // Two catch-ups at once, each folding one order and its customer in (the oldest note, then the
        // next): the second must not wait for the first's rows.
        await first.query('begin');
        await first.query('select report_catch_up(1, false)');
        await second.query('begin');
        await second.query(`set local lock_timeout = '300ms'`);
        seen.catchUpWaited = await second.query('select report_catch_up(1, false)').then(() => false, waited);
        await second.query('commit');
        await first.query('commit');
      } finally {
        first.release();
        second.release();
      }
      const slotsOf = async () => (await pool.query<{ slot: number }>(`select distinct slot from order_daily_facts where day = '2026-03-03' order by slot`)).rows.map((r) => r.slot);
      seen.slots = await slotsOf();
      seen.countedAfter = (await pool.query<{ n: number }>(`select coalesce(sum(order_count), 0)::int as n from customers`)).rows[0]!.n;
      // Alone again, the next catch-up adds to the lowest slot, and a full refund of the first takes it out.
      await order(api, { ...flush, status: 'shipped', email: 'third@example.com', at: '2026-03-03T12:00:00Z' });
      const { rows } = await pool.query<{ id: string }>(`select id from orders where customer_email = 'first@example.com'`);
      await givenBack(api, rows[0]!.id, '20.00', 'refund', '20.00');
      await catchUpReportSummary(pool, { wait: true });
      seen.afterSlots = await slotsOf();
      seen.pendingAfter = await reportSummaryBacklog(pool);
      for (const p of COMPARED) seen.figures.push(await summaryAndLive(api, p));
      seen.march = (await salesFigures(pool, COMPARED[0]!)).find((r) => r.cur);
    });
  });

  it('the checkouts are noted, not counted, in their own transactions', () => {
    expect(seen.secondWaited).toBe(false);
    expect(seen.summaryBefore).toBe(0);
    expect(seen.pendingBefore).toBe(2);
    expect(seen.countedBefore).toBe(0);
    // The two catch-ups counted each customer's order.
    expect(seen.countedAfter).toBe(2);
  });

  it('the second catch-up adds to its own slot without waiting, and the reports sum the slots', () => {
    expect(seen.catchUpWaited).toBe(false);
    expect(seen.slots).toEqual([0, 1]);
    expect(seen.afterSlots).toEqual([0, 1]);
    expect(seen.pendingAfter).toBe(0);
    for (const figures of seen.figures) for (const [summary, live] of Object.values(figures)) expect(summary).toEqual(live);
    expect(seen.march).toMatchObject({ orders: 2, sales: 6000, refunds: 2000 });
  });
});

describe('the daily summary: a busy day refunded at once', () => {
  const seen: { failures: string[]; slots: number; figures: Array<Awaited<ReturnType<typeof summaryAndLive>>> } = { failures: [], slots: 0, figures: [] };

  beforeAll(async () => {
    await withFreshDatabase(
      async (api) => {
        const pool = api.ctx.db.$client;
        const failed = (error: { code?: string; message: string }) => {
          seen.failures.push(`${error.code}: ${error.message}`);
        };
        /** Six workers' catch-ups of a few rows each, racing the writes until `done` (each skips the others' rows). */
        const catchUps = (done: { value: boolean }) =>
          Array.from({ length: 6 }, async () => {
            while (!done.value) await catchUpReportSummary(pool, { wait: false, batch: 3 }).catch(failed);
          });
        // Two rounds: an order of the day, then 24 of the same day and the same two products placed at once,
        // folded in by catch-ups holding several slots at once (one holds the first order's slot, 0, while
        // six more fold in the rest; each product's rows named by its latest line), then all given back at
        // once (voided: each repair of a product's name writes the rows of every slot; or cancelled) while
        // six catch-ups race the writes. Without the repairs' ordered locks this deadlocked (40P01) in about
        // one transaction in ten.
        for (const day of ['2026-03-04', '2026-03-07']) {
          // Its note, the oldest (its customer's figures need none of their own): the held catch-up's, which no
          // other one needs.
          await order(api, { email: `early-${day}@example.com`, total: '20.00', status: 'processing', at: `${day}T08:00:00Z`, items: [line(1, 'Flush early', 1, '10.00'), line(2, 'Dish early', 1, '10.00')] });
          const ids = await Promise.all(
            Array.from({ length: 24 }, (_, i) =>
              order(api, { email: `busy${i}@example.com`, total: '20.00', status: 'processing', at: `${day}T12:00:${String(i).padStart(2, '0')}Z`, items: [line(1, `Flush ${i}`, 1, '10.00'), line(2, `Dish ${i}`, 1, '10.00')] }),
            ),
          );
          const held = await pool.connect();
          try {
            await held.query('begin');
            await held.query('select report_catch_up(1, false)');
            const done = { value: false };
            const racing = catchUps(done);
            // The held rows count until their commit.
            while ((await reportSummaryBacklog(pool)) > 1) await new Promise((resolve) => setTimeout(resolve, 10));
            done.value = true;
            await Promise.all(racing);
            await held.query('commit');
          } finally {
            held.release();
          }
          seen.slots = Math.max(seen.slots, (await pool.query<{ n: number }>(`select count(distinct slot)::int as n from order_daily_products where day = $1`, [day])).rows[0]!.n);
          const done = { value: false };
          const racing = catchUps(done);
          await Promise.all(ids.map((id, i) => (i % 4 === 3 ? pool.query(`update orders set status = 'cancelled' where id = $1`, [id]) : givenBack(api, id, '20.00', 'void', '20.00')).catch(failed)));
          done.value = true;
          await Promise.all(racing);
          await catchUpReportSummary(pool, { wait: true });
        }
        for (const p of COMPARED) seen.figures.push(await summaryAndLive(api, p));
      },
      { DATABASE_POOL_MAX: '32' },
    );
  });

  it('ends without a deadlock, every write counted once, names repaired in every slot', () => {
    expect(seen.failures).toEqual([]);
    expect(seen.slots).toBeGreaterThan(1);
    for (const figures of seen.figures) for (const [summary, live] of Object.values(figures)) expect(summary).toEqual(live);
  });
});

describe("the dashboard's sales by day", () => {
  let today: unknown;

  beforeAll(async () => {
    await withFreshDatabase(async (api) => {
      // An account's order of today, 50.00, of which 20.00 refunded to store credit.
      const shopper = await signUpShopper(api, 'dashboard-credit');
      const g = await order(api, { email: shopper.email, userId: shopper.id, total: '50.00', status: 'processing', at: new Date().toISOString(), items: [line(4, 'Sponge', 2, '25.00')] });
      await api.ctx.db.$client.query(`insert into payment_transactions (order_id, kind, amount, status) values ($1, 'charge', 50, 'approved')`, [g]);
      const manager = await signInAs(api, 'manager');
      const refund = await manager.request(`/api/admin/orders/${g}/refunds`, {
        method: 'POST',
        body: { storeCode: 'NH', amount: '20.00', reason: 'Leaking refill', method: 'credit', restock: false, notify: false },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(refund.status).toBe(201);
      today = ((await (await manager.request('/api/admin/dashboard')).json()) as { today: unknown }).today;
    });
  });

  it('subtracts a refund to store credit from net revenue, as the reports do', () => {
    expect(today).toEqual({ orders: 1, revenue: '30.00', refunded: '20.00' });
  });
});

describe('the subscriptions report', () => {
  const answers: Record<string, { status: number; body: unknown }> = {};

  beforeAll(async () => {
    await withFreshDatabase(async (api) => {
      const q = (text: string, values: unknown[] = []) => api.ctx.db.$client.query<{ id: string }>(text, values).then((r) => r.rows);
      const plan = async (amount: string, interval = 'monthly') =>
        (await q(`insert into subscriptions (customer_email, customer_name, items, amount, interval, next_billing_date) values ('s@example.com', 'S', '[]', $1, $2, now()) returning id`, [amount, interval]))[0]!.id;
      const manager = await signInAs(api, 'manager');
      const get = async (path: string) => {
        const res = await manager.request(path);
        return { status: res.status, body: (await res.json()) };
      };
      const a = await plan('30.00');
      const b = await plan('20.00');
      const c = await plan('90.00', 'quarterly');
      const d = await plan('15.00');
      const e = await plan('10.00');
      answers.noSnapshots = await get(`/api/admin/reports/subscriptions?from=${FROM}&to=${TO}`);

      // The day before the range: A 3000, B 2000, C 3000, D 1500, E 1000 a month.
      await writeSubscriptionSnapshot(api.ctx.db, '2026-02-28');
      await q(`update subscriptions set amount = 40 where id = $1`, [a]); // expansion +1000
      await q(`update subscriptions set status = 'cancelled' where id = any($1)`, [[b, d, e]]); // churned 2000 + 1500 + 1000
      await writeSubscriptionSnapshot(api.ctx.db, '2026-03-05');
      await q(`update subscriptions set status = 'active' where id = $1`, [e]); // E back: reactivated +1000 (and still churned once)
      await writeSubscriptionSnapshot(api.ctx.db, TO);
      await q(`update subscriptions set status = 'cancelled' where id = $1`, [c]); // after the range: not in it
      await writeSubscriptionSnapshot(api.ctx.db, '2026-03-11');

      // The range's cancellations and save offers (the cancellation report's data), and one after it.
      await q(`insert into subscription_cancellations (subscription_id, actor, reason, at) values ($1, 'customer', 'price', '2026-03-05T10:00:00Z'), ($2, 'staff', null, '2026-03-06T10:00:00Z'), ($3, 'customer', 'price', '2026-03-11T10:00:00Z')`, [b, d, c]);
      await q(`insert into subscription_cancel_offers (subscription_id, reason, kind, shown_at, accepted_at) values ($1, 'price', 'discount', '2026-03-03T10:00:00Z', '2026-03-03T10:05:00Z'), ($2, 'price', 'discount', '2026-03-04T10:00:00Z', null)`, [a, b]);
      answers.report = await get(`/api/admin/reports/subscriptions?from=${FROM}&to=${TO}`);
      answers.bad = await get(`/api/admin/reports/subscriptions?from=${FROM}`);
    });
  });

  it('without snapshots: MRR now, no movement yet', () => {
    expect(answers.noSnapshots!.status).toBe(200);
    expect(answers.noSnapshots!.body).toMatchObject({ mrrNowCents: 3000 + 2000 + 3000 + 1500 + 1000, activePlansNow: 5, snapshotsFrom: null, movement: null });
  });

  it('MRR now, its movement summed over the days of the range (a plan that churned and came back is in both), churn and the save rate', () => {
    const report = answers.report!.body as SubscriptionsReport;
    expect(report.mrrNowCents).toBe(5000);
    expect(report.activePlansNow).toBe(2);
    expect(report.snapshotsFrom).toBe('2026-02-28');
    expect(report.movement).toEqual({
      startDay: '2026-02-28',
      endDay: TO,
      startMrrCents: 10500,
      endMrrCents: 8000,
      newCents: 0,
      expansionCents: 1000,
      contractionCents: 0,
      churnedCents: 4500,
      reactivatedCents: 1000,
      plans: { new: 0, expansion: 1, contraction: 0, churned: 3, reactivated: 1 },
      plansAtStart: 5,
      planChurnRatePercent: 60,
      mrrChurnRatePercent: 42.9,
    });
    expect(report.cancellations).toEqual({
      total: 2,
      byReason: [
        { reason: CANCEL_REASONS.price, count: 1 },
        { reason: NO_REASON, count: 1 },
      ],
      offersShown: 2,
      offersAccepted: 1,
      plansSaved: 1,
      saveRatePercent: 33.3,
    });
    expect(answers.bad).toMatchObject({ status: 400, body: { message: REPORT_MESSAGES.to } });
  });
});

describe('the stock cover report', () => {
  let report: StockCoverReport;
  let runsShortOn = '';

  beforeAll(async () => {
    await withFreshDatabase(async (api) => {
      const q = (text: string, values: unknown[] = []) => api.ctx.db.$client.query<{ id: string; day: string }>(text, values).then((r) => r.rows);
      const product = async (id: number, name: string, inventory: number, status = 'active') =>
        q(`insert into products (id, name, slug, price, inventory, status) values ($1, $2, $3, 10, $4, $5)`, [id, name, `p-${id}`, inventory, status]);
      await product(1, 'Refill', 10);
      await product(2, 'Soap', 100);
      await product(3, 'Retired', 0, 'inactive');
      await product(4, 'Sponge', 5);
      const plan = async (inDays: number, items: unknown[], addOns: unknown[] = [], status = 'active') =>
        (await q(
          `insert into subscriptions (customer_email, customer_name, items, one_time_items, amount, status, next_billing_date)
           values ('s@example.com', 'S', $1, $2, 20, $3, now() + make_interval(days => $4::int)) returning id, to_char(next_billing_date at time zone 'UTC', 'YYYY-MM-DD') as day`,
          [JSON.stringify(items), JSON.stringify(addOns), status, inDays],
        ))[0]!;
      await plan(2, [line(1, 'Refill', 4, '9.00'), line(2, 'Soap', 1, '5.00')]);
      // Its 4 refills plus 3 added once: the add-on is the delivery the stock no longer covers.
      const short = await plan(10, [line(1, 'Refill', 4, '9.00')], [{ id: 'x', productId: 1, productName: 'Refill', variantSku: null, quantity: 3 }]);
      runsShortOn = short.day;
      await plan(40, [line(1, 'Refill', 50, '9.00')]); // beyond 30 days
      await plan(3, [line(1, 'Refill', 50, '9.00')], [], 'paused'); // paused: no renewal
      // Sold one-time in the last 30 days: 6 refills (0.2 a day). A plan's order and an older order are not the sales rate.
      const sale = (units: number, daysAgo: number, planId: string | null = null) =>
        q(
          `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, created_at, subscription_id)
           values ('NH', 'o@example.com', 'O', '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', $1, 10, 0, 0, 10, 'shipped', now() - make_interval(days => $2::int), $3)`,
          [JSON.stringify([line(1, 'Refill', units, '9.00')]), daysAgo, planId],
        );
      await sale(4, 1);
      await sale(2, 29);
      await sale(9, 40);
      await sale(9, 1, short.id);
      const manager = await signInAs(api, 'manager');
      const res = await manager.request('/api/admin/reports/stock-cover');
      expect(res.status).toBe(200);
      report = (await res.json()) as StockCoverReport;
    });
  });

  it('counts renewals due in 30 days, their add-ons and the sales rate; flags the product that runs short before a delivery', () => {
    expect(report.products).toEqual([
      { productId: 1, name: 'Refill', inStock: 10, renewalUnits: 8, addOnUnits: 3, soldLast30Days: 6, daysOfCover: 17.6, runsShortOn, plansShort: 1 },
      { productId: 2, name: 'Soap', inStock: 100, renewalUnits: 1, addOnUnits: 0, soldLast30Days: 0, daysOfCover: 3000, runsShortOn: null, plansShort: 0 },
      { productId: 4, name: 'Sponge', inStock: 5, renewalUnits: 0, addOnUnits: 0, soldLast30Days: 0, daysOfCover: null, runsShortOn: null, plansShort: 0 },
    ]);
  });
});
