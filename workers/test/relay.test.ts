import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { eq, sql } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { recordOutbox } from '@nh/server/queries/outbox';
import { createQueue, QUEUE_NAMES, type QueueName } from '@nh/server/runtime/queues';
import { OutboxRelay } from '../src/relay/relay';
import type { WorkerConfig } from '../src/lib/config';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server';
import { createTestDatabase, placeOrder, sleep, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;

interface RelayRig {
  relay: OutboxRelay;
  queues: Record<QueueName, Queue>;
  close: () => Promise<void>;
}

function startRelay(config: WorkerConfig, redisUrl = config.REDIS_URL): RelayRig {
  const redis: Redis = createRedis(redisUrl, 'client');
  const queues = Object.fromEntries(QUEUE_NAMES.map((n) => [n, createQueue(n, redis, config.QUEUE_PREFIX)])) as Record<QueueName, Queue>;
  for (const q of Object.values(queues)) q.on('error', () => {});
  const relay = new OutboxRelay({ db: tdb.db, queues, config, log: createLogger('relay-test', config.LOG_LEVEL) });
  relay.start();
  return {
    relay,
    queues,
    close: async () => {
      await relay.stop();
      await Promise.allSettled(Object.values(queues).map((q) => q.obliterate({ force: true }).catch(() => {})));
      await Promise.allSettled(Object.values(queues).map((q) => q.close()));
      redis.disconnect();
    },
  };
}

const outboxIdFor = async (orderId: string) => {
  const rows = await tdb.db.select().from(tables.outbox).where(sql`${tables.outbox.payload}->>'orderId' = ${orderId}`);
  return rows[0]!;
};

beforeAll(async () => {
  tdb = await createTestDatabase('relay');
});
afterAll(async () => {
  await tdb?.drop();
});

describe('outbox relay', () => {
  it('turns an order.placed row into a sync job and a confirmation email job, ids derived from the row id', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay'));
    try {
      const orderId = await placeOrder(tdb.db);
      const row = await outboxIdFor(orderId);
      const syncJob = await waitFor(() => rig.queues['erp-sync'].getJob(`outbox-${row.id}-sync-order`), 10_000, 'sync job');
      expect(syncJob.data).toEqual({ orderId });
      expect(syncJob.opts.attempts).toBe(8);
      const mailJob = await rig.queues.emails.getJob(`outbox-${row.id}-order-confirmation`);
      expect(mailJob?.data).toEqual({ orderId });
      const published = await waitFor(async () => (await outboxIdFor(orderId)).publishedAt, 10_000, 'published');
      expect(published).toBeInstanceOf(Date);
    } finally {
      await rig.close();
    }
  });

  it('reacts at once through LISTEN/NOTIFY (sweep set to a minute)', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay', { RELAY_SWEEP_MS: '60000' }));
    try {
      await sleep(300); // LISTEN connection up
      const started = Date.now();
      const orderId = await placeOrder(tdb.db);
      const row = await outboxIdFor(orderId);
      await waitFor(() => rig.queues['erp-sync'].getJob(`outbox-${row.id}-sync-order`), 10_000, 'job via NOTIFY');
      // The sweep would take a minute: anything well under that came through NOTIFY.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await rig.close();
    }
  });

  it('behind a pooler (DATABASE_POOLED) it LISTENs on DATABASE_DIRECT_URL, and without one it only sweeps', async () => {
    const listeners = async () =>
      (await tdb.db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where application_name = 'nurture-home-relay' and datname = current_database()`)).rows[0]!.n;
    const direct = startRelay(testWorkerConfig(tdb.url, 'relay', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/pooler', DATABASE_POOLED: 'true', DATABASE_DIRECT_URL: tdb.url, RELAY_SWEEP_MS: '60000' }));
    try {
      await waitFor(async () => (await listeners()) === 1 || undefined, 5_000, 'the LISTEN connection on the direct URL');
    } finally {
      await direct.close();
    }
    await waitFor(async () => (await listeners()) === 0 || undefined, 5_000, 'the listener gone');
    const sweeping = startRelay(testWorkerConfig(tdb.url, 'relay', { DATABASE_POOLED: 'true', RELAY_SWEEP_MS: '300' }));
    try {
      const orderId = await placeOrder(tdb.db);
      const row = await outboxIdFor(orderId);
      await waitFor(() => sweeping.queues['erp-sync'].getJob(`outbox-${row.id}-sync-order`), 10_000, 'job via the sweep');
      expect(await listeners()).toBe(0);
    } finally {
      await sweeping.close();
    }
  });

  it('re-listens after its Postgres connection is killed', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay', { RELAY_SWEEP_MS: '60000' }));
    try {
      await sleep(300);
      await tdb.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'nurture-home-relay' and datname = current_database()`);
      await sleep(1500);
      const orderId = await placeOrder(tdb.db);
      const row = await outboxIdFor(orderId);
      await waitFor(() => rig.queues['erp-sync'].getJob(`outbox-${row.id}-sync-order`), 10_000, 'job after reconnect');
    } finally {
      await rig.close();
    }
  });

  it('a row relayed twice (crash between enqueue and commit) is still one job', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay'));
    try {
      const orderId = await placeOrder(tdb.db);
      await waitFor(async () => (await outboxIdFor(orderId)).publishedAt, 10_000, 'published');
      const before = await rig.queues['erp-sync'].getJobCountByTypes('waiting', 'delayed', 'active', 'completed');
      // As if the commit had been lost: the row is unpublished again and relayed a second time.
      await tdb.db.update(tables.outbox).set({ publishedAt: null }).where(eq(tables.outbox.id, (await outboxIdFor(orderId)).id));
      await waitFor(async () => (await outboxIdFor(orderId)).publishedAt, 10_000, 'published again');
      expect(await rig.queues['erp-sync'].getJobCountByTypes('waiting', 'delayed', 'active', 'completed')).toBe(before);
    } finally {
      await rig.close();
    }
  });

  it('maps newsletter.subscribed to a welcome email job and leaves unknown topics for a newer relay', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay'));
    try {
      const [sub] = await tdb.db.insert(tables.newsletterSubscribers).values({ email: 'relay-news@example.com' }).returning();
      await tdb.db.transaction((tx) => recordOutbox(tx, 'newsletter.subscribed', { subscriberId: sub!.id, email: sub!.email }));
      const [unknown] = await tdb.db.insert(tables.outbox).values({ topic: 'future.topic', payload: {} }).returning();
      const [row] = await tdb.db.select().from(tables.outbox).where(eq(tables.outbox.topic, 'newsletter.subscribed'));
      const job = await waitFor(() => rig.queues.emails.getJob(`outbox-${row!.id}-newsletter-welcome`), 10_000, 'welcome job');
      expect(job.data).toEqual({ subscriberId: sub!.id });
      await sleep(500);
      const [still] = await tdb.db.select().from(tables.outbox).where(eq(tables.outbox.id, unknown!.id));
      expect(still!.publishedAt).toBeNull();
      await tdb.db.delete(tables.outbox).where(eq(tables.outbox.id, unknown!.id));
    } finally {
      await rig.close();
    }
  });

  it('maps subscription.created to the plan welcome email and subscription.paused to the paused notice', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay'));
    try {
      const subscriptionId = '00000000-0000-4000-8000-00000000a11c';
      await tdb.db.transaction(async (tx) => {
        await recordOutbox(tx, 'subscription.created', { subscriptionId });
        await recordOutbox(tx, 'subscription.paused', { subscriptionId, period: '2031-03-05' });
      });
      const rows = await tdb.db.select().from(tables.outbox).where(sql`${tables.outbox.payload}->>'subscriptionId' = ${subscriptionId}`);
      const created = rows.find((r) => r.topic === 'subscription.created')!;
      const paused = rows.find((r) => r.topic === 'subscription.paused')!;
      const welcome = await waitFor(() => rig.queues.emails.getJob(`outbox-${created.id}-subscription-welcome`), 10_000, 'plan welcome job');
      expect(welcome.data).toEqual({ subscriptionId });
      expect(welcome.opts.attempts).toBe(6);
      const notice = await waitFor(() => rig.queues.emails.getJob(`outbox-${paused.id}-subscription-paused`), 10_000, 'paused notice job');
      expect(notice.data).toEqual({ subscriptionId, period: '2031-03-05' });
    } finally {
      await rig.close();
    }
  });

  it('maps subscription.resumed to a renew job for its period at once, its id from the outbox row (never a sweep id)', async () => {
    const config = testWorkerConfig(tdb.url, 'relay');
    const rig = startRelay(config);
    try {
      const subscriptionId = '00000000-0000-4000-8000-00000000a12d';
      await tdb.db.transaction((tx) => recordOutbox(tx, 'subscription.resumed', { subscriptionId, period: '2031-04-05' }));
      const [row] = await tdb.db.select().from(tables.outbox).where(sql`${tables.outbox.topic} = 'subscription.resumed' and ${tables.outbox.payload}->>'subscriptionId' = ${subscriptionId}`);
      const job = await waitFor(() => rig.queues.renewals.getJob(`outbox-${row!.id}-renew-subscription`), 10_000, 'renew job');
      expect(job.name).toBe('renew-subscription');
      expect(job.data).toEqual({ subscriptionId, period: '2031-04-05', resumed: true });
      expect(job.opts.attempts).toBe(config.RENEWAL_JOB_ATTEMPTS);
      expect(job.opts.delay ?? 0).toBe(0);
      expect(job.id).not.toMatch(/^renew-/);
    } finally {
      await rig.close();
    }
  });

  it('maps order.shipped to the shipping notice email job', async () => {
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay'));
    try {
      const orderId = await placeOrder(tdb.db, { outbox: false });
      await tdb.db.transaction((tx) => recordOutbox(tx, 'order.shipped', { orderId }));
      const [row] = await tdb.db.select().from(tables.outbox).where(sql`${tables.outbox.topic} = 'order.shipped' and ${tables.outbox.payload}->>'orderId' = ${orderId}`);
      const job = await waitFor(() => rig.queues.emails.getJob(`outbox-${row!.id}-order-shipped`), 10_000, 'shipping notice job');
      expect(job.name).toBe('order-shipped');
      expect(job.data).toEqual({ orderId });
      expect(job.opts.attempts).toBe(6);
      // Only the email: a shipped order is not synced again nor confirmed again.
      expect(await rig.queues['erp-sync'].getJob(`outbox-${row!.id}-sync-order`)).toBeUndefined();
      expect(await rig.queues.emails.getJob(`outbox-${row!.id}-order-confirmation`)).toBeUndefined();
      await waitFor(async () => (await tdb.db.select().from(tables.outbox).where(eq(tables.outbox.id, row!.id)))[0]?.publishedAt, 10_000, 'published');
    } finally {
      await rig.close();
    }
  });

  it('keeps rows unpublished while Redis is down and relays them when it returns', async () => {
    let redis: PrivateRedis | null = await startPrivateRedis();
    const rig = startRelay(testWorkerConfig(tdb.url, 'relay'), redis.url);
    try {
      await redis.stop();
      const orderId = await placeOrder(tdb.db);
      await sleep(2500);
      expect((await outboxIdFor(orderId)).publishedAt).toBeNull();
      await redis.start();
      const publishedAt = await waitFor(async () => (await outboxIdFor(orderId)).publishedAt, 15_000, 'published after Redis returned');
      expect(publishedAt).toBeInstanceOf(Date);
      const row = await outboxIdFor(orderId);
      expect(await rig.queues['erp-sync'].getJob(`outbox-${row.id}-sync-order`)).toBeTruthy();
    } finally {
      await rig.close();
      await redis?.stop();
      redis = null;
    }
  });
});
