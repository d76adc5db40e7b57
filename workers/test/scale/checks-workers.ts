/** The checks of `npm run test:scale` about the worker processes: the outbox relay, the schedules, the renewal sweep. */
import type { Queue } from 'bullmq';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { priceCart } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import type { Db } from '@nh/server/db/client';
import { outboxJobId, withJobTrace } from '@nh/server/jobs/contract';
import type { LocalSandboxGateway } from '@nh/server/payments';
import type { RedisClient } from '@nh/server/runtime/redis';
import type { QueueName } from '@nh/server/runtime/queues';
import { email as staffInvitationJob } from '../../src/emails/staff-invitation';
import { renewalSweepJob } from '../../src/renewals/sweep';
import { SCHEDULES } from '../../src/schedules';
import { storedTestCard, TEST_ADDRESS } from '../support/sandbox-card';
import type { CheckResult } from './checks-api';
import { waitFor } from '@nh/server/testing/wait-for';
import { stopProcess } from './processes';
import type { Stack } from './stack';

export interface WorkerRig {
  db: Db;
  redis: RedisClient;
  queues: Record<QueueName, Queue>;
  sandbox: LocalSandboxGateway;
}

const ROWS = 2000;

/**
 * 2,000 outbox rows written at once; while both relays move them (batches of 100), one worker is
 * SIGKILLed and started again. Every row ends published with exactly its one job.
 */
export async function outboxOneToOne(stack: Stack, rig: WorkerRig): Promise<CheckResult> {
  const topic = Object.keys(staffInvitationJob.topics ?? {})[0]!;
  const { rows } = await rig.db.$client.query<{ id: string }>(
    `insert into outbox (topic, payload) select $1, jsonb_build_object('tokenId', gen_random_uuid()) from generate_series(1, ${ROWS}) returning id`,
    [topic],
  );
  const ids = rows.map((r) => Number(r.id));
  const published = async () =>
    Number(
      (await rig.db.$client.query<{ n: string }>('select count(*) as n from outbox where id = any($1) and published_at is not null', [ids]))
        .rows[0]!.n,
    );
  const worker = stack.workers[0]!;
  const atKill = await waitFor(
    async () => {
      const n = await published();
      return n > 0 ? n : null;
    },
    20_000,
    'the first published batch',
    5,
  );
  await stopProcess(worker.proc, 'SIGKILL');
  await stack.startWorker(worker);
  await waitFor(async () => (await published()) === ROWS, 60_000, 'every row published', 200);

  const queue = rig.queues[staffInvitationJob.queue];
  const jobs = await Promise.all(ids.map((id) => queue.getJob(outboxJobId(id, staffInvitationJob.name))));
  const missing = jobs.filter((job) => !job).length;
  const wrongData = jobs.filter(
    (job, i) =>
      job &&
      (job.name !== staffInvitationJob.name ||
        typeof (job.data as { tokenId?: unknown }).tokenId !== 'string' ||
        job.id !== outboxJobId(ids[i]!, staffInvitationJob.name)),
  ).length;
  return {
    ok: missing === 0 && wrongData === 0 && atKill < ROWS,
    detail: `${ROWS} rows; ${worker.name} SIGKILLed with ${atKill} published; all published, ${ROWS - missing} jobs (one per row), ${missing} missing, ${wrongData} wrong`,
  };
}

/** Three rounds of restarting both workers at once; then each schedule has one scheduler and one next run. */
export async function oneSchedulerPerSchedule(stack: Stack, rig: WorkerRig): Promise<CheckResult> {
  for (let round = 0; round < 3; round++) {
    await Promise.all(stack.workers.map((w) => stopProcess(w.proc, 'SIGTERM', 15_000)));
    await Promise.all(stack.workers.map((w) => stack.startWorker(w)));
  }
  const problems: string[] = [];
  for (const queueName of [...new Set(SCHEDULES.map((s) => s.queue))]) {
    const queue = rig.queues[queueName];
    const schedulers = await queue.getJobSchedulers(0, -1);
    const pending = await queue.getJobs(['delayed', 'waiting', 'prioritized']);
    const expected = SCHEDULES.filter((s) => s.queue === queueName).map((s) => s.id);
    const ids = schedulers.map((s) => s.key);
    for (const id of expected) {
      const count = ids.filter((k) => k === id).length;
      const runs = pending.filter((job) => job.repeatJobKey === id).length;
      if (count !== 1 || runs !== 1) problems.push(`${queueName}/${id}: ${count} schedulers, ${runs} next runs`);
    }
    for (const id of ids.filter((k) => !expected.includes(k))) problems.push(`${queueName}: unknown scheduler ${id}`);
  }
  return {
    ok: problems.length === 0,
    detail: problems.length
      ? problems.join('; ')
      : `${SCHEDULES.length} schedules, each with 1 scheduler and 1 next run, after 3 restarts of both workers`,
  };
}

const PLANS = 10;

/** Ten plans due yesterday and two renewal sweeps added at once (both workers consume renewals): each plan is charged once. */
export async function twoSweepsChargeOnce(_stack: Stack, rig: WorkerRig): Promise<CheckResult> {
  const [product] = await rig.db.select().from(tables.products).where(eq(tables.products.status, 'active')).limit(1);
  await rig.db.update(tables.products).set({ inventory: 10_000 }).where(eq(tables.products.id, product!.id));
  const items = [
    {
      productId: product!.id,
      productName: product!.name,
      variantSku: null,
      sku: null,
      itemNumber: null,
      quantity: 1,
      price: (product!.price / 100).toFixed(2),
    },
  ];
  const amount = priceCart([{ price: product!.price, quantity: 1 }], { subscribe: true }).total;
  const due = new Date(Date.now() - 86_400_000);
  const planIds: string[] = [];
  for (let i = 0; i < PLANS; i++) {
    const profile = await storedTestCard(rig.sandbox);
    const [row] = await rig.db
      .insert(tables.subscriptions)
      .values({
        customerEmail: `saver-${i}@scale.test`,
        customerName: 'Sam Saver',
        items,
        amount,
        nextBillingDate: due,
        status: 'active',
        shippingAddress: TEST_ADDRESS,
        authnetCustomerProfileId: profile.customerProfileId,
        authnetPaymentProfileId: profile.paymentProfileId,
      })
      .returning({ id: tables.subscriptions.id });
    planIds.push(row!.id);
  }
  const sweeps = await Promise.all(
    ['scale-sweep-1', 'scale-sweep-2'].map((jobId) =>
      rig.queues.renewals.add(renewalSweepJob.name, withJobTrace({}, null, null), { jobId }),
    ),
  );
  await waitFor(
    async () => (await Promise.all(sweeps.map((job) => job.getState()))).every((s) => s === 'completed' || s === 'failed'),
    30_000,
    'both sweeps',
  );
  const renewed = async () =>
    (
      await rig.db
        .select({ id: tables.subscriptions.id })
        .from(tables.subscriptions)
        .where(and(inArray(tables.subscriptions.id, planIds), sql`${tables.subscriptions.nextBillingDate} > now()`))
    ).length;
  await waitFor(async () => (await renewed()) === PLANS, 30_000, 'every plan renewed', 200).catch(() => null);
  // The renew jobs are settled: nothing waits or runs (the schedules' next runs are delayed, not counted).
  await waitFor(
    async () => {
      const counts = await rig.queues.renewals.getJobCounts('waiting', 'active', 'prioritized');
      return Object.values(counts).every((n) => n === 0);
    },
    30_000,
    'the renew jobs',
    200,
  ).catch(() => null);
  const charges = await rig.db
    .select({ subscriptionId: tables.paymentTransactions.subscriptionId, n: sql<number>`count(*)::int` })
    .from(tables.paymentTransactions)
    .where(
      and(
        inArray(tables.paymentTransactions.subscriptionId, planIds),
        eq(tables.paymentTransactions.status, 'approved'),
        eq(tables.paymentTransactions.kind, 'charge'),
      ),
    )
    .groupBy(tables.paymentTransactions.subscriptionId);
  const perPlan = planIds.map((id) => charges.find((c) => c.subscriptionId === id)?.n ?? 0);
  const orders = await rig.db
    .select({ n: sql<number>`count(*)::int` })
    .from(tables.orders)
    .where(inArray(tables.orders.subscriptionId, planIds));
  const sweepStates = await Promise.all(sweeps.map((job) => job.getState()));
  const ran = await Promise.all(sweeps.map((job) => rig.queues.renewals.getJob(job.id!)));
  const [first, second] = ran.map((job) => ({ from: job?.processedOn ?? 0, to: job?.finishedOn ?? 0 }));
  const overlap = first && second && first.from < second.to && second.from < first.to ? 'overlapping' : 'one after the other';
  return {
    ok: perPlan.every((n) => n === 1) && orders[0]!.n === PLANS && sweepStates.every((s) => s === 'completed'),
    detail: `${PLANS} due plans, 2 sweeps (${sweepStates.join(', ')}, ${overlap}): approved charges per plan ${[...new Set(perPlan)].join('/')}, ${orders[0]!.n} renewal orders`,
  };
}
