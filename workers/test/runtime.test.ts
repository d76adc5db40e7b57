import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { ConfigError } from '@nh/server/runtime/env';
import { loadWorkerConfig } from '../src/lib/config';
import { RUNNABLE_NOW, runScheduledJobNow, SCHEDULES } from '../src/schedules';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase('rt');
});
afterAll(async () => {
  await tdb?.drop();
});

describe('worker configuration', () => {
  it('consumes every queue by default, or those named in WORKER_QUEUES', () => {
    expect(loadWorkerConfig({}).WORKER_QUEUES).toEqual(['erp-sync', 'exports', 'emails', 'renewals', 'maintenance']);
    expect(loadWorkerConfig({ WORKER_QUEUES: ' erp-sync, erp-sync ,emails' }).WORKER_QUEUES).toEqual(['erp-sync', 'emails']);
    expect(() => loadWorkerConfig({ WORKER_QUEUES: 'erp-sync,billing' })).toThrow(/unknown queue "billing"/);
  });

  it('has the documented defaults and treats NetSuite as all-or-nothing', () => {
    const config = loadWorkerConfig({});
    expect(config).toMatchObject({ ERP_SYNC_CONCURRENCY: 4, ERP_SYNC_ATTEMPTS: 8, RELAY_ENABLED: true, REPORT_CATCH_UP_MS: 1000, PAYMENT_RECONCILE_AFTER_MINUTES: 15, netsuite: null });
    expect(config.MAIL_OUTBOX_DIR).toMatch(/\.local\/mail-outbox$/);
    expect(config.EXPORTS_DIR).toMatch(/\.local\/exports$/);
    expect(loadWorkerConfig({ RELAY_ENABLED: 'false' }).RELAY_ENABLED).toBe(false);
    expect(() => loadWorkerConfig({ NETSUITE_ACCOUNT_ID: '123' })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ NETSUITE_ACCOUNT_ID: '123' })).toThrow(/NETSUITE_CONSUMER_KEY, NETSUITE_CONSUMER_SECRET, NETSUITE_TOKEN_ID, NETSUITE_TOKEN_SECRET must be set/);
    expect(() => loadWorkerConfig({ ERP_SYNC_CONCURRENCY: '0' })).toThrow(/ERP_SYNC_CONCURRENCY/);
  });

  it('checks the file storage settings at start: a wrong STORAGE_URL, or half a credential pair, is one line naming it', () => {
    expect(loadWorkerConfig({ STORAGE_URL: 's3://shop-files/prod', S3_ENDPOINT: 'http://minio:9000' })).toMatchObject({ STORAGE_URL: 's3://shop-files/prod', S3_PRESIGN_SECONDS: 300 });
    expect(() => loadWorkerConfig({ STORAGE_URL: '/mnt/files' })).toThrow(/^Invalid configuration: STORAGE_URL: must be s3:\/\/bucket/);
    expect(() => loadWorkerConfig({ STORAGE_URL: 's3://shop-files', AWS_SECRET_ACCESS_KEY: 'x' })).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together/);
  });
});

describe('renewals queue', () => {
  it('registers the daily schedule once and its sweep adds one renew job per due subscription', async () => {
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'rt', { WORKER_QUEUES: 'renewals', RELAY_ENABLED: 'false' }));
    try {
      const schedulers = await runtime.queues.renewals.getJobSchedulers();
      expect(schedulers).toEqual([expect.objectContaining({ key: 'renewals-daily', pattern: '0 6 * * *', tz: 'UTC' })]);
      const due = new Date(Date.now() - 86_400_000);
      const [dueRow] = await tdb.db
        .insert(tables.subscriptions)
        .values([
          { customerEmail: 'due@example.com', customerName: 'Due', items: [], amount: 1000, nextBillingDate: due },
          { customerEmail: 'later@example.com', customerName: 'Later', items: [], amount: 1000, nextBillingDate: new Date(Date.now() + 2 * 86_400_000) },
        ])
        .returning({ id: tables.subscriptions.id });
      const job = await runtime.queues.renewals.add('renewal-sweep', {}, { jobId: 'sweep-now' });
      await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'sweep');
      const renewJobId = `renew-${dueRow!.id}-${due.toISOString().slice(0, 10)}-0`;
      expect((await runtime.queues.renewals.getJob('sweep-now'))?.returnvalue).toEqual({ resumed: [], due: 1, jobs: [renewJobId], reminders: [], headsUps: [], cardHeadsUps: [], cardLookups: [], priceNotices: { noticed: 0, dropped: 0 } });
      // No stored card: the renew job pauses the plan without charging.
      const renewJob = await waitFor(() => runtime.queues.renewals.getJob(renewJobId), 5000, 'renew job');
      await waitFor(async () => (await renewJob.getState()) === 'completed', 10_000, 'renew job done');
      expect((await runtime.queues.renewals.getJob(renewJobId))?.returnvalue).toMatchObject({ outcome: 'not-charged', status: 'paused' });
    } finally {
      await runtime.queues.renewals.removeJobScheduler('renewals-daily');
      await runtime.close(1000);
    }
  });
});

/** The maintenance queue's schedules, as its jobs declare them (a new scheduled job changes no test here). */
const MAINTENANCE_SCHEDULES = SCHEDULES.filter((schedule) => schedule.queue === 'maintenance');
const removeMaintenanceSchedulers = async (runtime: WorkerRuntime) => {
  for (const { id } of MAINTENANCE_SCHEDULES) await runtime.queues.maintenance.removeJobScheduler(id);
};

describe('maintenance queue', () => {
  it('registers the hourly housekeeping (and the 10-minute payment reconciliation) and deletes only old published outbox rows and old finished keys', async () => {
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'hk', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false', RETENTION_DAYS: '7' }));
    const q = (text: string, values: unknown[] = []) => tdb.db.$client.query(text, values);
    try {
      const schedulers = await runtime.queues.maintenance.getJobSchedulers();
      // Exactly the declared ones, among them these two.
      expect(schedulers.map((s) => s.key).sort()).toEqual(MAINTENANCE_SCHEDULES.map((s) => s.id).sort());
      expect(schedulers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: 'maintenance-hourly', name: 'housekeeping', pattern: '17 * * * *', tz: 'UTC' }),
          expect.objectContaining({ key: 'maintenance-reconcile-payments', name: 'reconcile-payments', pattern: '*/10 * * * *', tz: 'UTC' }),
        ]),
      );

      const tag = `hk-${Date.now()}`;
      const { rows } = await q(
        `insert into outbox (topic, payload, created_at, published_at) values
           ('order.placed', $1::jsonb, now() - interval '9 days', now() - interval '8 days'),
           ('order.placed', $1::jsonb, now() - interval '9 days', null),
           ('order.placed', $1::jsonb, now() - interval '2 days', now() - interval '2 days')
         returning id`,
        [JSON.stringify({ tag })],
      );
      const [oldPublished, oldUnpublished, recent] = rows.map((r: { id: string }) => Number(r.id));
      await q(
        `insert into idempotency_keys (scope, key, request_hash, status_code, response, created_at, completed_at) values
           ('checkout', $1, 'h', 200, '{}', now() - interval '9 days', now() - interval '9 days'),
           ('checkout', $2, 'h', null, null, now() - interval '9 days', null),
           ('checkout', $3, 'h', 200, '{}', now() - interval '1 day', now() - interval '1 day'),
           ('checkout', $4, 'h', null, null, now() - interval '1 day', null)`,
        [`${tag}-old-done`, `${tag}-old-open`, `${tag}-recent`, `${tag}-recent-open`],
      );

      const job = await runtime.queues.maintenance.add('housekeeping', {}, { jobId: `${tag}-now` });
      await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'housekeeping');
      const result = (await runtime.queues.maintenance.getJob(`${tag}-now`))?.returnvalue as { outboxDeleted: number; idempotencyKeysDeleted: number };
      expect(result.outboxDeleted).toBeGreaterThanOrEqual(1);

      const left = (await q(`select id from outbox where payload->>'tag' = $1 order by id`, [tag])).rows.map((r: { id: string }) => Number(r.id));
      expect(left).toEqual([oldUnpublished, recent]);
      expect(left).not.toContain(oldPublished);
      const keys = (await q(`select key from idempotency_keys where key like $1 order by key`, [`${tag}-%`])).rows.map((r: { key: string }) => r.key);
      expect(keys).toEqual([`${tag}-recent`, `${tag}-recent-open`]);
    } finally {
      await removeMaintenanceSchedulers(runtime);
      await runtime.close(1000);
    }
  });
});

describe('running a scheduled job now (npm run worker:run-now -- <job>)', () => {
  it('adds one run with the schedule\'s data, which a worker on that queue runs; an unknown name is refused with the list', async () => {
    expect(RUNNABLE_NOW).toEqual(expect.arrayContaining(['renewal-sweep', 'housekeeping', 'reconcile-payments', 'reconcile-sync']));
    const runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'runnow', { WORKER_QUEUES: 'maintenance', RELAY_ENABLED: 'false' }));
    try {
      const id = await runScheduledJobNow(runtime.queues, 'housekeeping');
      expect(id).toMatch(/^manual-housekeeping-\d+$/);
      const job = (await runtime.queues.maintenance.getJob(id))!;
      expect(job.name).toBe('housekeeping');
      await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'housekeeping run now');
      await expect(runScheduledJobNow(runtime.queues, 'charge-everyone')).rejects.toThrow(/unknown job "charge-everyone": one of .*renewal-sweep/);
    } finally {
      await removeMaintenanceSchedulers(runtime);
      await runtime.close(1000);
    }
  });
});
