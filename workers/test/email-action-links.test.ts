/**
 * One-click action links in the plan emails (issue 22), end to end: the renewal reminder job (as the sweep
 * adds it) is sent by the worker to the local SMTP server with one link per action (skip, delay two weeks,
 * ship now, each other cadence offered), each token made as the email was sent. The tokens are in the email
 * and nowhere else: not in the job's data or result, anything in Redis, an outbox row or a log line; only
 * their hashes are stored. A link works without signing in through the real API. A job run again for the
 * sent email makes no new links; a retry after a failed send replaces the tokens (no trail of live links).
 * The shipping email of a renewal carries links for the plan's next delivery.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { TestSmtpServer } from './support/smtp-server';
import type { Job } from 'bullmq';
import { localFileStorage } from '@nh/server/storage';
import { mintEmailActionToken } from '@nh/server/queries/subscriptions/email-actions';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';
import { createTestDatabase, placeOrder, startTestWorkers, tempDir, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerConfig } from '../src/lib/config';
import type { WorkerRuntime } from '../src/runtime';

const SITE_URL = 'https://shop.example.test';
const DAY_MS = 86_400_000;

const logged: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(chunk.toString('utf8'));
    done();
  },
});

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let config: WorkerConfig;
let runtime: WorkerRuntime;
let api: TestApi;

beforeAll(async () => {
  tdb = await createTestDatabase('actions');
  smtp = await new TestSmtpServer().start();
  config = testWorkerConfig(tdb.url, 'actions', {
    SMTP_URL: smtp.url,
    WORKER_QUEUES: 'emails',
    EMAIL_BACKOFF_MS: '50',
    SHOP_SITE_URL: SITE_URL,
  });
  runtime = await startTestWorkers(config, createLogger('workers-test', 'debug', sink));
  api = await startTestApi(
    { DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, LOG_LEVEL: 'debug' },
    { log: createLogger('api-test', 'debug', sink) },
  );
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

/** An active plan billed `dueInDays` ahead, its shopper's account made with it. */
async function insertPlan(email: string, dueInDays = 5) {
  const [user] = await tdb.db.insert(tables.users).values({ email, firstName: 'Sam' }).returning({ id: tables.users.id });
  const [product] = await tdb.db.$client
    .query<{ id: number }>(
      `insert into products (name, slug, price, inventory, status, sku) values ('Action Cleaner', $1, '10.00', 50, 'active', $1) returning id`,
      [`action-${randomUUID().slice(0, 8)}`],
    )
    .then((r) => r.rows);
  const [plan] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      customerEmail: email,
      customerName: 'Sam Saver',
      items: [
        {
          productId: product!.id,
          productName: 'Action Cleaner',
          variantSku: null,
          sku: null,
          itemNumber: null,
          quantity: 1,
          price: '10.00',
        },
      ],
      amount: 918,
      nextBillingDate: new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + dueInDays * DAY_MS + 14 * 3_600_000),
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      authnetCustomerProfileId: '9001',
      authnetPaymentProfileId: '9002',
      userId: user!.id,
    })
    .returning({ id: tables.subscriptions.id, nextBillingDate: tables.subscriptions.nextBillingDate });
  return plan!;
}

/** Everything Redis holds under the queues' prefix (jobs' data, return values, failed attempts), as text. */
async function everythingInRedis(): Promise<string> {
  const redis = createRedis(config.REDIS_URL, 'client');
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.QUEUE_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** The sent email's action links, by their words in the text part ("Skip this delivery: https://…/email-actions/<token>"). */
async function sentActionLinks(kind: string, to: string): Promise<Map<string, string>> {
  await waitFor(
    async () =>
      (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, to))).find(
        (r) => r.kind === kind && r.status === 'sent',
      ),
    15_000,
    `${kind} to ${to}`,
  );
  const mail = smtp.to(to).at(-1)!;
  expect(mail.decoded).not.toMatch(/[?&#]token=/);
  const links = new Map<string, string>();
  for (const m of mail.decoded.matchAll(
    new RegExp(`^ {2}([^:\\n]+): ${SITE_URL.replace(/\./g, '\\.')}/email-actions/([A-Za-z0-9_-]{43})$`, 'gm'),
  ))
    links.set(m[1]!, m[2]!);
  return links;
}

const tokenHashes = (subscriptionId: string) =>
  tdb.db.$client
    .query<{ action: string; interval_count: number; token_hash: string; used_at: Date | null }>(
      'select action, interval_count, token_hash, used_at from email_action_tokens where subscription_id = $1 order by action, interval_count',
      [subscriptionId],
    )
    .then((r) => r.rows);

describe("the renewal reminder's one-click links", () => {
  it('carries a working link per action, each token only in the email (not in job data, Redis, the outbox or a log line); a skip works without signing in', async () => {
    const email = `reminded-${randomUUID().slice(0, 8)}@example.com`;
    const plan = await insertPlan(email);
    const period = billingPeriodOf(plan.nextBillingDate);
    const job = await runtime.queues.emails.add(
      'renewal-reminder',
      { subscriptionId: plan.id, period, cadences: [1, 2, 3] },
      { jobId: `remind-${plan.id}` },
    );
    const links = await sentActionLinks('renewal-reminder', email);
    expect([...links.keys()]).toEqual([
      'Skip this delivery',
      'Delay two weeks',
      'Ship now',
      'Deliver every 2 months',
      'Deliver every 3 months',
    ]);

    const done = await waitFor(
      async () => (await runtime.queues.emails.getJob(job.id!))?.returnvalue as { outcome: string } | undefined,
      10_000,
      'the job',
    );
    expect(done).toMatchObject({ outcome: 'sent' });
    const rows = await tokenHashes(plan.id);
    expect(rows).toHaveLength(5);
    const tokens = [...links.values()];
    expect(rows.map((r) => r.token_hash).sort()).toEqual(tokens.map(hashSingleUseToken).sort());
    const redis = await everythingInRedis();
    expect(redis).toContain(plan.id);
    const outbox = (await tdb.db.$client.query<{ row: string }>('select row_to_json(o)::text as row from outbox o')).rows
      .map((r) => r.row)
      .join('\n');
    for (const token of tokens) {
      expect(redis.includes(token), 'a token in Redis').toBe(false);
      expect(outbox.includes(token), 'a token in the outbox').toBe(false);
      expect(logged.filter((line) => line.includes(token))).toEqual([]);
    }

    // The same job run again for the sent email: nothing sent, no new tokens.
    const again = await runtime.queues.emails.add(
      'renewal-reminder',
      { subscriptionId: plan.id, period, cadences: [1, 2, 3] },
      { jobId: `again-${plan.id}` },
    );
    expect(await waitFor(async () => (await runtime.queues.emails.getJob(again.id!))?.returnvalue, 10_000, 'the job again')).toEqual({
      outcome: 'skipped',
      reason: 'already sent',
    });
    expect((await tokenHashes(plan.id)).map((r) => r.token_hash)).toEqual(rows.map((r) => r.token_hash));

    // The page's view changes nothing; the confirm skips the delivery, no session needed; the request log drops the token.
    const skip = links.get('Skip this delivery')!;
    expect((await api.request(`/api/email-actions/${skip}`)).status).toBe(200);
    expect((await api.request(`/api/email-actions/${skip}`, { method: 'POST', body: {} })).status).toBe(200);
    const [after] = await tdb.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, plan.id));
    expect(after!.nextBillingDate.getTime()).toBeGreaterThan(plan.nextBillingDate.getTime() + 27 * DAY_MS);
    expect((await api.request(`/api/email-actions/${skip}`, { method: 'POST', body: {} })).status).toBe(410);
    // The other links of that delivery are stale now.
    expect((await api.request(`/api/email-actions/${links.get('Delay two weeks')!}`)).status).toBe(410);
    await waitFor(() => logged.some((line) => line.includes('/api/email-actions/[redacted]')), 5_000, 'the request log line');
    expect(logged.filter((line) => tokens.some((t) => line.includes(t)))).toEqual([]);
  });

  it('a retry after a failed send replaces the tokens: one row per action, only the emailed links work', async () => {
    const email = `retried-${randomUUID().slice(0, 8)}@example.com`;
    const plan = await insertPlan(email);
    const period = billingPeriodOf(plan.nextBillingDate);
    smtp.rejectTemporarily = new RegExp(`^${email.replace(/\./g, '\\.')}$`);
    let firstHashes: string[];
    try {
      await runtime.queues.emails.add(
        'renewal-reminder',
        { subscriptionId: plan.id, period, cadences: [1, 2] },
        { jobId: `remind-${plan.id}`, attempts: 3, backoff: { type: 'fixed', delay: 50 } },
      );
      await waitFor(
        async () =>
          (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, email))).find((r) => r.error?.includes('451')),
        15_000,
        'a failed send',
      );
      firstHashes = (await tokenHashes(plan.id)).map((r) => r.token_hash);
    } finally {
      smtp.rejectTemporarily = null;
    }
    const links = await sentActionLinks('renewal-reminder', email);
    expect([...links.keys()]).toEqual(['Skip this delivery', 'Delay two weeks', 'Ship now', 'Deliver every 2 months']);
    const rows = await tokenHashes(plan.id);
    expect(rows).toHaveLength(4);
    for (const hash of rows.map((r) => r.token_hash)) expect(firstHashes).not.toContain(hash);
    expect(rows.map((r) => r.token_hash).sort()).toEqual([...links.values()].map(hashSingleUseToken).sort());
  });
});

describe("the heads-ups' one-click links", () => {
  it('an item unavailable: skip and delay two weeks, for the delivery at risk', async () => {
    const email = `headsup-${randomUUID().slice(0, 8)}@example.com`;
    const plan = await insertPlan(email);
    await tdb.db.$client.query(
      `update products set status = 'inactive' where id = (select (items->0->>'productId')::int from subscriptions where id = $1)`,
      [plan.id],
    );
    await runtime.queues.emails.add(
      'subscription-item-unavailable',
      { subscriptionId: plan.id, period: billingPeriodOf(plan.nextBillingDate) },
      { jobId: `headsup-${plan.id}` },
    );
    const links = await sentActionLinks('subscription-item-unavailable', email);
    expect([...links.keys()]).toEqual(['Skip this delivery', 'Delay two weeks']);
    expect((await api.request(`/api/email-actions/${links.get('Delay two weeks')!}`, { method: 'POST', body: {} })).status).toBe(200);
    const [after] = await tdb.db.select().from(tables.subscriptions).where(eq(tables.subscriptions.id, plan.id));
    expect(after!.nextBillingDate.getTime()).toBe(plan.nextBillingDate.getTime() + 14 * DAY_MS);
  });
});

describe('the shipping email of a renewal', () => {
  it("carries skip and delay links for the plan's next delivery", async () => {
    const email = `shipped-${randomUUID().slice(0, 8)}@example.com`;
    const plan = await insertPlan(email, 30);
    const orderId = await placeOrder(tdb.db, { customerEmail: email, outbox: false });
    await tdb.db.$client.query(`update orders set status = 'shipped' where id = $1`, [orderId]);
    await tdb.db.$client.query(
      `insert into payment_transactions (order_id, subscription_id, kind, status, amount, billing_period) values ($1, $2, 'charge', 'approved', 9.18, $3)`,
      [orderId, plan.id, billingPeriodOf(new Date())],
    );
    await runtime.queues.emails.add('order-shipped', { orderId }, { jobId: `shipped-${orderId}` });
    const links = await sentActionLinks('order-shipped', email);
    expect([...links.keys()]).toEqual(['Skip this delivery', 'Delay two weeks']);
    const view = await (await api.request(`/api/email-actions/${links.get('Skip this delivery')!}`)).json();
    expect(view).toMatchObject({ action: 'skip', deliveryDate: plan.nextBillingDate.toISOString() });
  });
});

describe('housekeeping', () => {
  it('purges action tokens whose period ended more than RETENTION_DAYS ago (used or not) and keeps the rest', async () => {
    const plan = await insertPlan(`purged-${randomUUID().slice(0, 8)}@example.com`);
    const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
    for (const [period, action] of [
      [day(-40), 'skip'],
      [day(-40), 'delay'],
      [day(-3), 'skip'],
      [day(5), 'skip'],
    ] as const) {
      await mintEmailActionToken(tdb.db.$client, { subscriptionId: plan.id, period, action });
    }
    await tdb.db.$client.query(`update email_action_tokens set used_at = now() where subscription_id = $1 and action = 'delay'`, [plan.id]);
    const housekeeping = createHousekeepingProcessor({
      db: tdb.db,
      log: createLogger('hk-test', 'silent'),
      retentionDays: 7,
      ledgerRetentionDays: 90,
      exportFiles: localFileStorage(tempDir('hk-actions')),
    });
    const result = await housekeeping({ id: 'hk-actions' } as Job);
    expect(result.emailActionTokensDeleted).toBeGreaterThanOrEqual(2);
    const left = await tdb.db.$client.query<{ period: string }>(
      `select to_char(billing_period, 'YYYY-MM-DD') as period from email_action_tokens where subscription_id = $1 order by billing_period`,
      [plan.id],
    );
    expect(left.rows.map((r) => r.period)).toEqual([day(-3), day(5)]);
  });
});
