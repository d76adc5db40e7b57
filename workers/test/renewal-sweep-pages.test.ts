/**
 * The renewal sweep reads due plans a page at a time (keyset on next_billing_date, id): every due plan
 * once, in order, across page boundaries and ties (billing dates equal to the microsecond), and its
 * result lists at most SWEEP_RESULT_JOB_IDS job ids while `due` counts them all. Real database and
 * Redis; the renewals queue is not consumed here (the jobs are only counted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { LocalSandboxGateway } from '@nh/server/payments';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { createQueue } from '@nh/server/runtime/queues';
import { dueSubscriptionPages, findDueSubscriptionsPage } from '@nh/server/queries/subscriptions/renewals';
import { createRenewalSweep, renewalSweepJob, SWEEP_RESULT_JOB_IDS } from '../src/renewals/sweep';
import { renewSubscriptionJob } from '../src/renewals/renew';
import { createTestDatabase, purgeQueuePrefix, testWorkerConfig, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let redis: Redis;
let redisUrl: string;
const prefixes: string[] = [];

const ITEMS = JSON.stringify([{ productId: 1, productName: 'Flush', variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '12.99' }]);

/** `n` plans of one test (emails `<tag>-<i>@example.com`), billed at `due` (SQL); answers their ids. */
async function insertPlans(tag: string, n: number, due: string, extra: { status?: string; retryAt?: string } = {}): Promise<string[]> {
  const { rows } = await tdb.db.$client.query<{ id: string }>(
    `insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date, status, retry_at, failed_attempts, shipping_address)
     select $1 || '-' || g || '@example.com', 'Pager', $2::jsonb, 11.04, ${due}, $4::subscription_status, ${extra.retryAt ?? 'null'},
            case when ${extra.retryAt ? 'true' : 'false'} then 1 else 0 end,
            '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}'::jsonb
     from generate_series(1, $3::int) g returning id`,
    [tag, ITEMS, n, extra.status ?? 'active'],
  );
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  tdb = await createTestDatabase('sweep_pages');
  redisUrl = testWorkerConfig(tdb.url, 'sweep-pages').REDIS_URL;
  redis = createRedis(redisUrl);
});

afterAll(async () => {
  for (const prefix of prefixes) await purgeQueuePrefix(redisUrl, prefix);
  redis.disconnect();
  await tdb.drop();
});

describe('due plans, a page at a time', () => {
  it('meets every due plan once, in (billing date, id) order, across pages and ties to the microsecond; not the ones not due', async () => {
    const tied = await insertPlans('tied', 5, `timestamptz '2020-03-04 05:06:07.123456+00'`);
    const spread = await insertPlans('spread', 4, `now() - interval '2 hours' - g * interval '1 millisecond'`);
    const retryLater = await insertPlans('retry-later', 2, `now() - interval '1 day'`, { retryAt: `date_trunc('day', now(), 'UTC') + interval '2 days'` });
    const paused = await insertPlans('paused', 2, `now() - interval '1 day'`, { status: 'paused' });
    const notYet = await insertPlans('not-yet', 2, `now() + interval '3 days'`);
    const ours = new Set([...tied, ...spread, ...retryLater, ...paused, ...notYet]);

    const met: Array<{ id: string; at: number }> = [];
    let pages = 0;
    for await (const page of dueSubscriptionPages(tdb.db.$client, 2)) {
      pages++;
      expect(page.length).toBeLessThanOrEqual(2);
      for (const s of page) if (ours.has(s.id)) met.push({ id: s.id, at: s.nextBillingDate.getTime() });
    }
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(met.map((m) => m.id).sort()).toEqual([...tied, ...spread].sort());
    // In order: billing date, then id (the tied ones by id).
    const ordered = [...met].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    expect(met).toEqual(ordered);

    // A page after the last tied plan starts past all of them (the keyset keeps the microseconds).
    const first = await findDueSubscriptionsPage(tdb.db.$client, null, 5);
    expect(first.map((s) => s.id).sort()).toEqual([...tied].sort());
    const next = await findDueSubscriptionsPage(tdb.db.$client, first[4]!, 100);
    for (const id of tied) expect(next.map((s) => s.id)).not.toContain(id);
    expect(next.filter((s) => ours.has(s.id)).map((s) => s.id).sort()).toEqual([...spread].sort());
  });
});

describe('the sweep over more plans than one page', () => {
  it('adds one renew job per due plan, counts them all in `due`, lists at most SWEEP_RESULT_JOB_IDS ids, and a second sweep adds none', async () => {
    await tdb.db.$client.query(`update subscriptions set status = 'cancelled'`);
    const count = 1000 + 37;
    const ids = await insertPlans('many', count, `now() - interval '1 hour' - (g % 7) * interval '1 minute'`);
    const config = testWorkerConfig(tdb.url, 'sweep-pages');
    prefixes.push(config.QUEUE_PREFIX);
    const queues = { renewals: createQueue('renewals', redis, config.QUEUE_PREFIX), emails: createQueue('emails', redis, config.QUEUE_PREFIX) };
    const gateway = new LocalSandboxGateway({ redis, keyPrefix: config.QUEUE_PREFIX });
    const sweep = createRenewalSweep({ db: tdb.db, gateway, queues, redis, config, log: createLogger('sweep-pages-test', 'silent') });
    const job = { name: renewalSweepJob.name, id: 'pages-sweep', data: {} } as Job;
    try {
      const result = await sweep(job);
      expect(result.due).toBe(count);
      expect(result.jobs).toHaveLength(SWEEP_RESULT_JOB_IDS);
      const renewJobs = (await queues.renewals.getJobs(['waiting'], 0, -1)).filter((j) => j.name === renewSubscriptionJob.name);
      expect(renewJobs).toHaveLength(count);
      expect(renewJobs.map((j) => (j.data as { subscriptionId: string }).subscriptionId).sort()).toEqual([...ids].sort());
      expect(new Set(result.jobs).size).toBe(SWEEP_RESULT_JOB_IDS);
      const added = new Set(renewJobs.map((j) => j.id));
      expect(result.jobs.filter((id) => !added.has(id))).toEqual([]);

      const again = await sweep(job);
      expect(again.due).toBe(count);
      expect(await queues.renewals.getWaitingCount()).toBe(count);
    } finally {
      await queues.renewals.close();
      await queues.emails.close();
    }
  });
});
