/**
 * Bulk swap (issue 21), the job: started through the admin API, run by a real worker process that is
 * killed (SIGKILL) in the middle of a plan's transaction, then run again: every plan of the run changed
 * exactly once (one audit row and one email outbox row each, its run row settled), the line swapped in
 * priced from today's catalogue, a plan that already had the product merged, one whose customer removed
 * the product meanwhile skipped, one that would go over the most a line may have skipped, ended plans
 * never touched. The swap rule's own cases and the customer's email are tested beside it.
 */
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import type { LineItem, SubscriptionRow } from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { toCents } from '@nh/shared/money';
import { SHOP } from '@nh/shared';
import { PLAN_ITEM_MAX_QUANTITY } from '@nh/shared/constants';
import { bulkSwapRunSchema, bulkSwapStartedSchema } from '@nh/shared/contracts/bulk-swap';
import { pricePlan } from '@nh/shared/pricing';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import { BULK_SWAP_STOPPED, createBulkSwapProcessor } from '../src/bulk-swap/job';
import { insertBulkSwapRun } from '@nh/server/queries/subscriptions/bulk-swap';
import { decideSwap } from '../src/bulk-swap/swap-rule';
import { staffChangeOf, subscriptionStaffChangeEmail } from '../src/emails/subscription-staff-change';
import { createTestDatabase, processExited, purgeQueuePrefix, spawnWorkerProcess, testWorkerEnv, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let api: TestApi;
let manager: StaffClient;
let env: Record<string, string>;

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);

async function makeProduct(name: string, price: string, status: 'active' | 'inactive' = 'active', taxCode: string | null = null): Promise<{ id: number; name: string }> {
  const [row] = await tdb.db
    .insert(tables.products)
    .values({ name, slug: name.toLowerCase().replace(/\W+/g, '-'), price: toCents(price), inventory: 1000, status, sku: `${name.slice(0, 8)}-SKU`, itemNumber: 'NH9', taxCode })
    .returning({ id: tables.products.id });
  return { id: row!.id, name };
}
const line = (product: { id: number; name: string }, quantity: number, price = '20.00'): LineItem => ({
  productId: product.id,
  productName: product.name,
  variantSku: null,
  sku: null,
  itemNumber: null,
  quantity,
  price,
});
async function makePlan(items: LineItem[], status: SubscriptionRow['status'] = 'active'): Promise<string> {
  const [row] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      customerName: 'Sam Swapper',
      customerEmail: `sam.${Math.random().toString(36).slice(2, 10)}@example.com`,
      items,
      amount: toCents('34.00'),
      nextBillingDate: new Date(Date.now() + 12 * 86_400_000),
      status,
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    })
    .returning({ id: tables.subscriptions.id });
  return row!.id;
}

beforeAll(async () => {
  tdb = await createTestDatabase('bulkswap');
  env = testWorkerEnv(tdb.url, 'bulkswap', { WORKER_QUEUES: 'maintenance', LOG_LEVEL: 'silent' });
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: env.QUEUE_PREFIX! });
  manager = await signInAs(api, 'manager');
});
afterAll(async () => {
  await api?.close();
  await purgeQueuePrefix(env.REDIS_URL!, env.QUEUE_PREFIX!);
  await tdb?.drop();
});

describe('a bulk swap whose worker is killed mid-run', () => {
  it('changes every plan exactly once after the job runs again', async () => {
    const oldFormula = await makeProduct('Old Formula Spray', '20.00');
    const newFormula = await makeProduct('New Formula Spray', '25.00', 'active', '31000');
    const other = await makeProduct('Dish Pods', '10.00');
    const plain: string[] = [];
    for (let i = 0; i < 40; i++) plain.push(await makePlan([line(other, 1, '10.00'), line(oldFormula, 2)], i % 5 === 0 ? 'paused' : 'active'));
    const merging = await makePlan([line(oldFormula, 2), line(newFormula, 3, '24.00')]);
    const tooMany = await makePlan([line(oldFormula, PLAN_ITEM_MAX_QUANTITY), line(newFormula, 1, '24.00')]);
    const cancelled = await makePlan([line(oldFormula, 1)], 'cancelled');
    const all = [...plain, merging, tooMany].sort();

    // The test holds the 21st plan (in the job's order) locked, as a change being written would (FOR NO KEY
    // UPDATE: the job's first statement, which records the run's plans, only needs their keys): the worker
    // stops on it in the middle of that plan's transaction.
    const blocked = all[20]!;
    const blocker = new pg.Client({ connectionString: tdb.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from subscriptions where id = $1 for no key update', [blocked]);

    let worker: ChildProcess | null = spawnWorkerProcess(env);
    let runId = '';
    try {
      const res = await manager.request('/api/admin/subscriptions/bulk-swap', {
        method: 'POST',
        body: { fromProductId: oldFormula.id, toProductId: newFormula.id, dryRun: false, reason: 'Reformulated' },
      });
      expect(res.status).toBe(202);
      runId = bulkSwapStartedSchema.parse(await res.json()).id;
      const settled = async () => (await q<{ n: number }>(`select count(*)::int as n from bulk_swap_plans where run_id = $1 and outcome <> 'pending'`, [runId]))[0]!.n;
      await waitFor(async () => (await settled()) === 20, 60_000, 'the worker to swap the first 20 plans');
      // It is waiting for the plan's lock inside that plan's transaction (its run row locked).
      await waitFor(
        async () => (await q(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`)).length > 0,
        10_000,
        'the worker to wait for the locked plan',
      );
      worker.kill('SIGKILL');
      await processExited(worker);
      worker = null;
    } finally {
      worker?.kill('SIGKILL');
      await blocker.query('rollback').catch(() => {});
      await blocker.end().catch(() => {});
    }

    const run = async () => bulkSwapRunSchema.parse(await (await manager.request(`/api/admin/subscriptions/bulk-swap/runs/${runId}`)).json());
    const killed = await run();
    expect(killed).toMatchObject({ status: 'running', total: all.length, done: 20 });
    // The plan it was on when killed: its transaction rolled back with the connection.
    expect(await q(`select outcome from bulk_swap_plans where run_id = $1 and subscription_id = $2`, [runId, blocked])).toEqual([{ outcome: 'pending' }]);
    expect(await q(`select 1 from audit_events where entity_id = $1 and action = 'subscription.bulk_swapped'`, [blocked])).toEqual([]);
    // The customer removed the product from a plan the job has not reached yet: a plain one (the ids sort
    // at random, so the merging or the too-many plan may stand anywhere after the 21st).
    const changedMeanwhile = all.slice(21).find((id) => plain.includes(id))!;
    await q(`update subscriptions set items = $2::jsonb where id = $1`, [changedMeanwhile, JSON.stringify([line(other, 1, '10.00')])]);

    // The job again (BullMQ retries a stalled job; here it is started directly, as the retry would).
    const processor = createBulkSwapProcessor({ db: tdb.db, log: createLogger('bulk-swap-test', 'silent'), batchSize: 7 });
    const job = { id: 'again', updateProgress: async () => {} };
    expect(await processor(job, { runId })).toMatchObject({ outcome: 'completed', failed: 0 });
    // And once more: nothing left to do, nothing written.
    expect(await processor(job, { runId })).toEqual({ outcome: 'skipped', reason: 'already completed' });

    const done = await run();
    expect(done).toMatchObject({ status: 'completed', total: all.length, done: all.length, changed: all.length - 2, skipped: 2, failed: 0 });
    expect(done.outcomes).toEqual({ swapped: all.length - 3, merged: 1, 'skipped-changed': 1, 'skipped-quantity': 1 });

    const audits = await q<{ entity_id: string; id: string; actor_email: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select entity_id, id::text, actor_email, before, after from audit_events where action = 'subscription.bulk_swapped' and after->>'bulkSwapRunId' = $1`,
      [runId],
    );
    const outbox = await q<{ payload: { subscriptionId: string; auditId: number } }>(`select payload from outbox where topic = 'subscription.changed-by-staff'`);
    const plansNow = new Map((await q<{ id: string; items: LineItem[]; amount: string }>('select id, items, amount::text from subscriptions')).map((p) => [p.id, p]));
    const changed = all.filter((id) => id !== changedMeanwhile && id !== tooMany);
    for (const id of changed) {
      const mine = audits.filter((a) => a.entity_id === id);
      expect(mine, `plan ${id}: one audit row`).toHaveLength(1);
      expect(mine[0]).toMatchObject({ actor_email: manager.email, after: { reason: 'Reformulated' } });
      expect(outbox.filter((o) => o.payload.subscriptionId === id), `plan ${id}: one email`).toEqual([{ payload: { subscriptionId: id, auditId: Number(mine[0]!.id) } }]);
      const items = plansNow.get(id)!.items;
      expect(items.filter((i) => i.productId === oldFormula.id)).toEqual([]);
      expect(items.filter((i) => i.productId === newFormula.id)).toHaveLength(1);
    }
    // Priced from today's catalogue (25.00, with the product's tax code), the other line kept as it was; the amount from the lines.
    const swapped = plansNow.get(plain.find((id) => id !== changedMeanwhile)!)!;
    expect(swapped.items).toEqual([
      line(other, 1, '10.00'),
      { productId: newFormula.id, productName: 'New Formula Spray', variantSku: null, sku: 'New Form-SKU', itemNumber: 'NH9', quantity: 2, price: '25.00', taxCode: '31000' },
    ]);
    expect(toCents(swapped.amount)).toBe(pricePlan([{ price: 1000, quantity: 1 }, { price: 2500, quantity: 2 }], null).renewal.total);
    // Merged into the line already there: 2 + 3, at today's price.
    expect(plansNow.get(merging)!.items).toEqual([{ productId: newFormula.id, productName: 'New Formula Spray', variantSku: null, sku: 'New Form-SKU', itemNumber: 'NH9', quantity: 5, price: '25.00', taxCode: '31000' }]);
    // Skipped plans and ended plans unchanged, no audit row, no email.
    for (const id of [changedMeanwhile, tooMany, cancelled]) {
      expect(audits.filter((a) => a.entity_id === id)).toEqual([]);
      expect(outbox.filter((o) => o.payload.subscriptionId === id)).toEqual([]);
    }
    expect(plansNow.get(tooMany)!.items.map((i) => i.productId)).toEqual([oldFormula.id, newFormula.id]);
    expect(plansNow.get(cancelled)!.items.map((i) => i.productId)).toEqual([oldFormula.id]);
    expect(await q('select 1 from bulk_swap_plans where subscription_id = $1', [cancelled])).toEqual([]);
  }, 120_000);
});

describe('a product to swap to that stops being sold before the run', () => {
  it('stops the run as failed with words saying so, and changes no plan', async () => {
    const before = await makeProduct('Kept Spray', '20.00');
    const gone = await makeProduct('Pulled Spray', '22.00');
    const id = await makePlan([line(before, 1)]);
    const run = await insertBulkSwapRun(tdb.db, { from: { productId: before.id, variantSku: null }, to: { productId: gone.id, variantSku: null }, reason: 'Test', staffId: null, staffEmail: 'mia@example.com', staffRole: 'manager' });
    await q(`update products set status = 'inactive' where id = $1`, [gone.id]);
    const processor = createBulkSwapProcessor({ db: tdb.db, log: createLogger('bulk-swap-test', 'silent') });
    expect(await processor({ id: 'gone', updateProgress: async () => {} }, { runId: run.id })).toMatchObject({ outcome: 'failed' });
    expect(await q('select status, error from bulk_swap_runs where id = $1', [run.id])).toEqual([{ status: 'failed', error: BULK_SWAP_STOPPED.toGone }]);
    expect((await q<{ items: LineItem[] }>('select items from subscriptions where id = $1', [id]))[0]!.items.map((i) => i.productId)).toEqual([before.id]);
    expect(await q(`select 1 from audit_events where entity_id = $1`, [id])).toEqual([]);
  });
});

describe('the swap rule', () => {
  const from = { productId: 1, variantSku: null };
  const toLine = (quantity: number): LineItem => ({ productId: 2, productName: 'New', variantSku: null, sku: null, itemNumber: null, quantity, price: '25.00' });
  const plan = (items: LineItem[], status: SubscriptionRow['status'] = 'active', periodCharge: { status: 'pending' | 'approved' | 'declined'; responseMessage: string | null } | null = null) => ({
    row: { status, items, amount: 3400 } as SubscriptionRow,
    periodCharge: periodCharge as never,
  });
  const old = (quantity: number, variantSku: string | null = null): LineItem => ({ productId: 1, productName: 'Old', variantSku, sku: null, itemNumber: null, quantity, price: '20.00' });

  it('skips ended plans, plans without the product, and plans whose next charge is under way or being checked', () => {
    expect(decideSwap(plan([old(1)], 'cancelled'), from, toLine).outcome).toBe('skipped-ended');
    expect(decideSwap(plan([toLine(1)]), from, toLine).outcome).toBe('skipped-changed');
    expect(decideSwap(plan([old(1)], 'active', { status: 'pending', responseMessage: null }), from, toLine).outcome).toBe('skipped-busy');
    expect(decideSwap(plan([old(1)], 'active', { status: 'pending', responseMessage: 'Held for review' }), from, toLine).outcome).toBe('skipped-busy');
    // A failed charge (dunning) does not stop the swap.
    expect(decideSwap(plan([old(1)], 'active', { status: 'declined', responseMessage: 'Declined' }), from, toLine).outcome).toBe('swapped');
  });

  it('adds up every size of the product swapped away, and keeps the limit per line', () => {
    const decided = decideSwap(plan([old(2, 'S'), old(3, 'L')]), from, toLine);
    expect(decided).toMatchObject({ outcome: 'swapped', items: [toLine(5)] });
    expect(decideSwap(plan([old(PLAN_ITEM_MAX_QUANTITY), toLine(1)]), from, toLine).outcome).toBe('skipped-quantity');
  });
});

describe('the customer\'s email', () => {
  it('says what was replaced with what, and the new amount', () => {
    const change = staffChangeOf(
      'subscription.bulk_swapped',
      { items: [{ productName: 'Old Formula Spray', quantity: 2 }], amount: '34.00' },
      { items: [{ productName: 'New Formula Spray', quantity: 2 }], amount: '51.00', reason: 'Reformulated', bulkSwapRunId: 'x' },
      new Date(),
    );
    const email = subscriptionStaffChangeEmail({
      customerName: 'Sam',
      items: [{ productName: 'New Formula Spray', quantity: 2, price: '25.00' }],
      amount: 5100,
      discountPercent: 15,
      interval: 'monthly',
      intervalCount: 1,
      change: change!,
    });
    expect(email.subject).toBe(`A product in your ${SHOP.name} Subscribe & Save plan has changed`);
    expect(email.text).toContain('We have replaced 2 x Old Formula Spray');
    expect(email.text).toContain('with 2 x New Formula Spray');
    expect(email.text).toContain('Each delivery is now $51.00 (it was $34.00)');
    expect(email.text).not.toContain('Reformulated');
    // The shop's change, not one the customer asked for.
    expect(email.text).not.toContain('on your behalf');
    expect(email.text).toContain('If you would rather have something else, change your plan');
  });
});


