/**
 * The dashboard's figures, on a database of its own (exact counts): sales today and per day over 30 days
 * (paid orders only), average order value, plans (active, monthly recurring revenue, due in 7 days, in
 * dunning, paused), NetSuite's backlog, and the queues' depths.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createQueue } from '@nh/server/runtime/queues';
import { dashboardSchema, DASHBOARD_DAYS } from '@nh/shared/contracts/admin-dashboard';
import { withFreshDatabase } from './support/fresh-database';
import type { TestApi } from './support/harness';
import { signInAs } from './support/staff';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function order(api: TestApi, f: { total: string; status: string; at: Date; netsuite?: string }): Promise<string> {
  const { rows } = await api.ctx.db.$client.query<{ id: string }>(
    `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status, netsuite_sync_status, created_at)
     values ('NH', 'c@example.com', 'C', '{"address":"1 Main St","city":"Portland","state":"OR","zip":"97201"}', '[]', $1, 0, 0, $1, $2, $3, $4) returning id`,
    [f.total, f.status, f.netsuite ?? 'synced', f.at],
  );
  return rows[0]!.id;
}

/** The order's captured charge and, of it, refunds or voids with their amounts and outcomes. */
async function givenBack(api: TestApi, orderId: string, total: string, rows: Array<{ kind: 'refund' | 'void'; amount: string; status: string }>) {
  const { rows: charge } = await api.ctx.db.$client.query<{ id: string }>(
    `insert into payment_transactions (order_id, kind, amount, status) values ($1, 'charge', $2, 'approved') returning id`,
    [orderId, total],
  );
  for (const r of rows) {
    await api.ctx.db.$client.query(`insert into payment_transactions (order_id, parent_id, kind, amount, status) values ($1, $2, $3, $4, $5)`, [orderId, charge[0]!.id, r.kind, r.amount, r.status]);
  }
}

async function plan(api: TestApi, f: { amount: string; interval: string; status: string; nextInDays: number; failed?: number }) {
  await api.ctx.db.$client.query(
    `insert into subscriptions (customer_email, customer_name, items, amount, interval, interval_count, status, next_billing_date, failed_attempts)
     values ('p@example.com', 'P', '[]', $1, $2, 1, $3, now() + make_interval(days => $4::int), $5)`,
    [f.amount, f.interval, f.status, f.nextInDays, f.failed ?? 0],
  );
}

describe('the dashboard', () => {
  let result: unknown;
  const queuePrefix = `dash-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    await withFreshDatabase(
      async (api) => {
        // A moment just after today's start (UTC) that is still today whenever the test runs.
        const now = Date.now();
        const today = new Date(Math.max(Date.parse(`${utcDay(now)}T00:00:00Z`) + 1000, now - HOUR));
        await order(api, { total: '40.00', status: 'processing', at: today });
        await order(api, { total: '20.00', status: 'delivered', at: today, netsuite: 'pending' });
        await order(api, { total: '99.00', status: 'pending', at: today, netsuite: 'pending' }); // not paid
        await order(api, { total: '50.00', status: 'cancelled', at: today }); // not a sale
        await order(api, { total: '30.00', status: 'shipped', at: new Date(now - 3 * DAY), netsuite: 'failed' });
        await order(api, { total: '70.00', status: 'shipped', at: new Date(now - 40 * DAY) }); // outside 30 days
        // Refunds and voids: revenue is net of what was given back (approved only); an order given back in full is no sale.
        const partly = await order(api, { total: '40.00', status: 'processing', at: today });
        await givenBack(api, partly, '40.00', [{ kind: 'refund', amount: '10.00', status: 'approved' }]);
        const voided = await order(api, { total: '25.00', status: 'shipped', at: today });
        await givenBack(api, voided, '25.00', [{ kind: 'void', amount: '25.00', status: 'approved' }]);
        const inFlight = await order(api, { total: '15.00', status: 'processing', at: today });
        await givenBack(api, inFlight, '15.00', [
          { kind: 'refund', amount: '15.00', status: 'pending' },
          { kind: 'refund', amount: '5.00', status: 'declined' },
        ]);
        const oldRefunded = await order(api, { total: '30.00', status: 'delivered', at: new Date(now - 5 * DAY) });
        await givenBack(api, oldRefunded, '30.00', [
          { kind: 'refund', amount: '12.00', status: 'approved' },
          { kind: 'refund', amount: '18.00', status: 'approved' },
        ]);
        await plan(api, { amount: '30.00', interval: 'monthly', status: 'active', nextInDays: 3 });
        await plan(api, { amount: '90.00', interval: 'quarterly', status: 'active', nextInDays: 20, failed: 1 });
        await plan(api, { amount: '12.00', interval: 'monthly', status: 'paused', nextInDays: 2 });
        await plan(api, { amount: '50.00', interval: 'monthly', status: 'cancelled', nextInDays: 1 });

        const emails = createQueue('emails', api.ctx.redis, queuePrefix);
        await emails.add('order-confirmation', { orderId: randomUUID() });
        const staff = await signInAs(api, 'fulfilment');
        const res = await staff.request('/api/admin/dashboard');
        expect(res.status).toBe(200);
        result = await res.json();
        await emails.obliterate({ force: true });
        await emails.close();
      },
      { QUEUE_PREFIX: queuePrefix },
    );
  });

  it('answers in the contract', () => {
    expect(dashboardSchema.safeParse(result).success).toBe(true);
  });

  it('counts paid orders today and over 30 days, per UTC day, net of refunds and voids (with what was refunded beside it)', () => {
    const d = dashboardSchema.parse(result);
    // 40 + 20, the 40 refunded 10 (30), the 15 whose refund is still pending; the voided 25 is no sale.
    expect(d.today).toEqual({ orders: 4, revenue: '105.00', refunded: '35.00' });
    expect(d.last30Days).toEqual({ orders: 5, revenue: '135.00', refunded: '65.00', averageOrderValue: '27.00' });
    expect(d.daily).toHaveLength(DASHBOARD_DAYS);
    expect(d.daily.at(-1)).toEqual({ day: utcDay(Date.now()), orders: 4, revenue: '105.00' });
    expect(d.daily.find((x) => x.day === utcDay(Date.now() - 3 * DAY))).toEqual({ day: utcDay(Date.now() - 3 * DAY), orders: 1, revenue: '30.00' });
    // Refunded in full in two parts: no sale that day.
    expect(d.daily.find((x) => x.day === utcDay(Date.now() - 5 * DAY))).toEqual({ day: utcDay(Date.now() - 5 * DAY), orders: 0, revenue: '0.00' });
    expect(d.daily.filter((x) => x.orders === 0)).toHaveLength(DASHBOARD_DAYS - 2);
  });

  it('sums the plans: monthly recurring revenue, due in 7 days, dunning and paused', () => {
    const d = dashboardSchema.parse(result);
    expect(d.plans).toEqual({
      active: 2,
      monthlyRecurringRevenue: '60.00', // 30 a month + 90 a quarter
      renewalsDueNext7Days: 1,
      renewalsDueNext7DaysAmount: '30.00',
      inDunning: 1,
      paused: 1,
    });
  });

  it("shows NetSuite's backlog and the queues' depths", () => {
    const d = dashboardSchema.parse(result);
    expect(d.netsuite.counts).toEqual({ synced: 7, pending: 2, failed: 1, not_configured: 0 });
    expect(d.netsuite.oldestPendingAt).not.toBeNull();
    expect(d.queues.emails).toMatchObject({ waiting: 1, active: 0, failed: 0 });
    expect(d.queues.emails?.oldestWaitingAt).toEqual(expect.any(String));
    expect(Object.keys(d.queues).sort()).toEqual(['emails', 'erp-sync', 'exports', 'maintenance', 'renewals']);
  });
});


