/**
 * The reports' summary caught up after the checkout (migration report_summary_deferred,
 * docs/decisions/checkout.md "The reports' summary, caught up after the checkout"): a paid order is only
 * noted in its own transaction; the worker folds the notes in every REPORT_CATCH_UP_MS without any read;
 * a catch-up killed halfway leaves its notes for the next; and a report read waits for a catch-up in
 * progress, so it counts every committed order exactly. The customers' figures ride on the same notes
 * (migration customer_figures_deferred): the catch-up recounts the noted orders' customers.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSummaryBacklog } from '@nh/server/queries/report-summary';
import { salesFigures, type Periods } from '@nh/server/queries/sales-reports';
import { createTestDatabase, placeOrder, sleep, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  tdb = await createTestDatabase('rsum');
  pool = tdb.db.$client;
});
afterAll(async () => {
  await tdb?.drop();
});

const today = new Date().toISOString().slice(0, 10);
const TODAY: Periods = { storeCode: 'NH', previousFrom: today, from: today, to: today };
const summed = async () => (await pool.query<{ orders: number }>(`select coalesce(sum(orders), 0)::int as orders from order_daily_facts`)).rows[0]!.orders;
const factsOf = async (id: string) => (await pool.query(`select 1 from order_report_facts where order_id = $1`, [id])).rowCount;
/** The order's customer's figures as stored, and the order's total in cents. */
const figuresOf = async (orderId: string) =>
  (
    await pool.query<{ order_count: number; spend_cents: string; first_order_at: Date | null; total_cents: string }>(
      `select c.order_count, c.spend_cents::text, c.first_order_at, round(o.total * 100)::text as total_cents from orders o join customers c on c.id = o.customer_id where o.id = $1`,
      [orderId],
    )
  ).rows[0]!;

describe('what a write notes', () => {
  /** The notes `write` added for `orderId` (after folding every earlier one in). */
  const notedBy = async (orderId: string, write: () => Promise<unknown>) => {
    await pool.query('select report_catch_up(100000, true)');
    await write();
    return (await pool.query<{ n: number }>('select count(*)::int as n from report_pending where order_id = $1', [orderId])).rows[0]!.n;
  };

  it('notes the changes the summary counts, and none of the updates that change nothing it counts', async () => {
    const id = await placeOrder(tdb.db, { outbox: false });
    const q = (text: string, values: unknown[] = [id]) => () => pool.query(text, values);
    // Nothing counted changes: the NetSuite sync's marks, a shipment (paid either way), a charge row.
    expect(await notedBy(id, q(`update orders set netsuite_sync_status = 'synced', netsuite_order_id = 'SO1', updated_at = now() where id = $1`))).toBe(0);
    expect(await notedBy(id, q(`update orders set status = 'shipped', carrier = 'UPS' where id = $1`))).toBe(0);
    expect(await notedBy(id, q(`insert into payment_transactions (order_id, kind, amount, status) values ($1, 'charge', 10, 'approved')`))).toBe(0);
    // Counted: a refund, its approval later, a customer moved by a new address, the total, cancelling.
    expect(await notedBy(id, q(`insert into payment_transactions (order_id, kind, amount, status) values ($1, 'refund', 1, 'pending')`))).toBe(1);
    expect(await notedBy(id, q(`update payment_transactions set status = 'approved' where order_id = $1 and kind = 'refund'`))).toBe(1);
    expect(await notedBy(id, q(`update payment_transactions set netsuite_record_id = 'CM1' where order_id = $1 and kind = 'refund'`))).toBe(0);
    expect(await notedBy(id, q(`update orders set customer_email = 'moved-${id}@example.com' where id = $1`))).toBe(1);
    expect(await notedBy(id, q(`update orders set total = total + 1 where id = $1`))).toBe(1);
    expect(await notedBy(id, q(`update orders set status = 'cancelled' where id = $1`))).toBe(1);
    // And the summary, caught up, agrees with the order as it now is: cancelled, so not counted.
    await pool.query('select report_catch_up(100000, true)');
    expect(await factsOf(id)).toBe(0);
  });
});

describe('the worker catches the summary up', () => {
  it('a paid order is noted, not counted, until the worker folds it in on its interval (no read involved)', async () => {
    const id = await placeOrder(tdb.db, { outbox: false });
    expect(await factsOf(id)).toBe(0);
    expect(await figuresOf(id)).toMatchObject({ order_count: 0, spend_cents: '0', first_order_at: null });
    expect(await reportSummaryBacklog(pool)).toBeGreaterThan(0);
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'rsum', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false', REPORT_CATCH_UP_MS: '100' }));
    try {
      await waitFor(async () => (await reportSummaryBacklog(pool)) === 0, 10_000, 'notes folded in');
      expect(await factsOf(id)).toBe(1);
      expect(await summed()).toBe(1);
      // The customer's figures, recounted by the same catch-up.
      const figures = await figuresOf(id);
      expect(figures).toMatchObject({ order_count: 1, spend_cents: figures.total_cents });
      expect(figures.first_order_at).not.toBeNull();
    } finally {
      await runtime.close();
    }
  });

  it('REPORT_CATCH_UP_MS=0 leaves the notes to another worker (and to the reads)', async () => {
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'rsum', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false', REPORT_CATCH_UP_MS: '0' }));
    try {
      expect(runtime.reportCatchUp).toBeNull();
      await placeOrder(tdb.db, { outbox: false });
      await sleep(300);
      expect(await reportSummaryBacklog(pool)).toBeGreaterThan(0);
      expect((await salesFigures(pool, TODAY)).find((r) => r.cur)).toMatchObject({ orders: 2 });
      expect(await reportSummaryBacklog(pool)).toBe(0);
    } finally {
      await runtime.close();
    }
  });
});

describe('a catch-up killed halfway', () => {
  it('leaves its notes and the summary as they were; the next catch-up counts the order once', async () => {
    const before = await summed();
    const id = await placeOrder(tdb.db, { outbox: false });
    const backlog = await reportSummaryBacklog(pool);
    const victim = await pool.connect();
    try {
      await victim.query('begin');
      await victim.query('select report_catch_up(100, false)');
      const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
      // The connection dies before its commit, as with a worker killed mid-run.
      victim.on('error', () => {});
      await pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      victim.release(true);
    }
    expect(await reportSummaryBacklog(pool)).toBe(backlog);
    expect(await factsOf(id)).toBe(0);
    // The next run (a worker's, on demand here: its interval is far off) takes them.
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'rsum', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false', REPORT_CATCH_UP_MS: '600000' }));
    try {
      expect(await runtime.reportCatchUp!.runNow()).toBe(backlog);
      expect(await factsOf(id)).toBe(1);
      // The customer's first order moved in that catch-up, which counted the customer's report days
      // itself: it noted nothing for a next one.
      expect(await figuresOf(id)).toMatchObject({ order_count: 1 });
      expect(await reportSummaryBacklog(pool)).toBe(0);
    } finally {
      await runtime.close();
    }
    expect((await salesFigures(pool, TODAY)).find((r) => r.cur)).toMatchObject({ orders: before + 1 });
    expect(await summed()).toBe(before + 1);
  });
});

describe('a report read while a worker is catching up', () => {
  it('waits for the catch-up in progress and then counts its orders', async () => {
    const before = await summed();
    await placeOrder(tdb.db, { outbox: false });
    await placeOrder(tdb.db, { outbox: false });
    const worker = await pool.connect();
    try {
      // The worker has taken the notes and not committed yet.
      await worker.query('begin');
      await worker.query('select report_catch_up(100, false)');
      let answered = false;
      const read = salesFigures(pool, TODAY).then((rows) => {
        answered = true;
        return rows;
      });
      await sleep(300);
      expect(answered).toBe(false);
      await worker.query('commit');
      expect((await read).find((r) => r.cur)).toMatchObject({ orders: before + 2 });
    } finally {
      worker.release();
    }
  });
});
