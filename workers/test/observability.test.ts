/**
 * The workers' instruments (issue 12): a request id from an API call on its outbox row, in the job the
 * relay made of it and on every log line of that job; the metrics after jobs ran (and failed); the
 * METRICS_PORT listener's /healthz and /readyz, with the renewal sweep's rule.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { runWithRequestId } from '@nh/server/observability/request-context';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { renewalSweepState, workerHealth } from '../src/health';
import type { WorkerRuntime } from '../src/runtime';
import { createTestDatabase, placeOrder, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let runtime: WorkerRuntime;
let api: TestApi;
/** Every line the worker runtime logged. */
const lines: Array<Record<string, unknown>> = [];

const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

beforeAll(async () => {
  tdb = await createTestDatabase('obs');
  // erp-sync is not consumed here: its jobs wait (the queue gauges), emails and renewals run.
  const config = testWorkerConfig(tdb.url, 'obs', { WORKER_QUEUES: 'emails,renewals', METRICS_PORT: '0', EMAIL_BACKOFF_MS: '50', REPORT_CATCH_UP_MS: '0' });
  runtime = await startTestWorkers(config, createLogger('workers-test', 'info', sink));
  // The real API on this file's database and queue prefix.
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX });
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(2000);
  await tdb?.drop();
});

/** The value of the first sample of `name` whose labels include `labels` (undefined when none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const scrape = async () => {
  const res = await fetch(`${runtime.metrics!.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

const outboxRow = async (topic: string, key: string, id: string | number) =>
  (await tdb.db.execute<{ id: number; request_id: string | null }>(sql`select id::int as id, request_id from outbox where topic = ${topic} and payload->>${key} = ${String(id)}`)).rows[0];

const completed = (queue: 'emails' | 'renewals', jobId: string) =>
  waitFor(async () => (await runtime.queues[queue].getJob(jobId))?.finishedOn && (await runtime.queues[queue].getJob(jobId))!.returnvalue !== undefined, 15_000, `job ${jobId}`);

describe('one request id from the API call to the worker log lines', () => {
  it('an API call\'s x-request-id is on its outbox row, in the job the relay made, and on every log line of that job', async () => {
    const requestId = `obs-newsletter-${Date.now()}`;
    const email = `obs-${Date.now()}@example.com`;
    const res = await api.request('/api/newsletter', { body: { email }, headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(201);
    const [subscriber] = (await tdb.db.execute<{ id: number }>(sql`select id from newsletter_subscribers where email = ${email}`)).rows;
    const row = await outboxRow('newsletter.subscribed', 'subscriberId', subscriber!.id);
    expect(row?.request_id).toBe(requestId);

    const jobId = `outbox-${row!.id}-newsletter-welcome`;
    await completed('emails', jobId);
    // The job carries it beside its payload; the handler's payload never sees it.
    expect((await runtime.queues.emails.getJob(jobId))!.data).toEqual({ subscriberId: subscriber!.id, _trace: { requestId } });

    const ofJob = await waitFor(() => {
      const found = lines.filter((l) => l.jobId === jobId);
      return found.some((l) => l.msg === 'email sent') && found;
    }, 10_000, 'the job\'s log lines');
    expect(ofJob.length).toBeGreaterThan(0);
    for (const line of ofJob) expect(line.reqId).toBe(requestId);
  });

  it('outbox rows written while a job or request id is current carry it; the erp-sync job waiting for its worker has it too', async () => {
    const requestId = `obs-order-${Date.now()}`;
    const orderId = await runWithRequestId(requestId, () => placeOrder(tdb.db));
    const row = await outboxRow('order.placed', 'orderId', orderId);
    expect(row?.request_id).toBe(requestId);
    const sync = await waitFor(() => runtime.queues['erp-sync'].getJob(`outbox-${row!.id}-sync-order`), 10_000, 'sync job');
    expect(sync.data).toEqual({ orderId, _trace: { requestId } });
    const confirmation = `outbox-${row!.id}-order-confirmation`;
    await completed('emails', confirmation);
    await waitFor(() => lines.some((l) => l.jobId === confirmation && l.msg === 'email sent' && l.reqId === requestId), 10_000, 'confirmation log line');

    // A row written outside any request has none, and its jobs no _trace.
    const plain = await placeOrder(tdb.db);
    const plainRow = await outboxRow('order.placed', 'orderId', plain);
    expect(plainRow?.request_id).toBeNull();
    const plainSync = await waitFor(() => runtime.queues['erp-sync'].getJob(`outbox-${plainRow!.id}-sync-order`), 10_000, 'sync job');
    expect(plainSync.data).toEqual({ orderId: plain });
  });
});

describe('worker metrics', () => {
  it('after jobs ran and failed: job durations and failures by queue and job, queue depths, outbox lag, the sweep, process metrics', async () => {
    // A job whose payload does not parse fails (one attempt).
    const bad = await runtime.queues.emails.add('order-confirmation', { orderId: 'not-a-uuid' }, { jobId: `obs-bad-${Date.now()}`, attempts: 1 });
    await waitFor(async () => (await bad.getState()) === 'failed', 10_000, 'failed job');
    // A row no relay of this version knows stays unpublished: the outbox lag.
    await tdb.db.execute(sql`insert into outbox (topic, payload, created_at) values ('future.topic', '{}', now() - interval '90 seconds')`);
    await placeOrder(tdb.db);
    const text = await waitFor(async () => {
      const t = await scrape();
      return (sample(t, 'nh_renewals_last_sweep_timestamp_seconds') ?? 0) > 0 && t;
    }, 15_000, 'the start-up sweep recorded');

    expect(sample(text, 'nh_job_duration_seconds_count', { queue: 'emails', job_name: 'order-confirmation', status: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_job_duration_seconds_count', { queue: 'emails', job_name: 'order-confirmation', status: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_job_duration_seconds_bucket', { queue: 'renewals', job_name: 'renewal-sweep', status: 'completed', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_job_failures_total', { queue: 'emails', job_name: 'order-confirmation' })).toBeGreaterThanOrEqual(1);

    // Every queue, every state; erp-sync has no worker here, so its jobs wait and age.
    for (const queue of ['erp-sync', 'exports', 'emails', 'renewals', 'maintenance']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(sample(text, 'nh_queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'nh_queue_oldest_waiting_age_seconds', { queue })).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'nh_queue_jobs', { queue: 'erp-sync', state: 'waiting' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_queue_jobs', { queue: 'emails', state: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_queue_oldest_waiting_age_seconds', { queue: 'erp-sync' })).toBeGreaterThan(0);
    expect(sample(text, 'nh_outbox_unpublished_rows')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_outbox_oldest_unpublished_age_seconds')).toBeGreaterThanOrEqual(90);
    // The paid order's notes for the reports' summary, not folded in (this runtime does no catch-up).
    expect(sample(text, 'nh_report_summary_pending_notes')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_renewals_last_sweep_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 3600);

    // Defined for the NetSuite client, renewals, emails and exports to record on (wired later).
    for (const name of ['nh_netsuite_requests_total', 'nh_netsuite_429_total', 'nh_netsuite_concurrency_in_use', 'nh_renewals_total', 'nh_emails_total', 'nh_export_rows_per_second', 'nh_payment_gateway_duration_seconds']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // A worker does not report the API's metrics.
    expect(text).not.toContain('nh_http_request_duration_seconds');
    expect(text).not.toContain('nh_checkouts_total');
  });
});

describe('worker /healthz and /readyz on METRICS_PORT', () => {
  it('answers alive and ready (PostgreSQL, Redis, consumers, the renewal sweep ran); other paths 404', async () => {
    const health = await fetch(`${runtime.metrics!.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await waitFor(async () => {
      const res = await fetch(`${runtime.metrics!.url}/readyz`);
      return res.status === 200 && ((await res.json()) as Record<string, unknown>);
    }, 15_000, 'ready');
    expect(ready).toMatchObject({ status: 'ready', checks: { postgres: 'ok', redis: 'ok', consumers: 'ok', renewalSweep: 'ok' } });
    expect(Date.parse(String(ready.lastSweepAt))).toBeGreaterThan(Date.now() - 3600_000);
    expect((await fetch(`${runtime.metrics!.url}/elsewhere`)).status).toBe(404);
  });

  it('the renewal sweep: ok once the latest 06:00 UTC sweep completed, due within an hour of it, late after; not ready when late or closing', async () => {
    const at = (iso: string) => new Date(iso);
    expect(renewalSweepState(at('2030-05-10T06:00:03Z'), at('2030-05-10T09:00:00Z'))).toBe('ok');
    expect(renewalSweepState(at('2030-05-09T06:00:03Z'), at('2030-05-10T05:59:00Z'))).toBe('ok');
    expect(renewalSweepState(at('2030-05-09T06:00:03Z'), at('2030-05-10T06:30:00Z'))).toBe('due');
    expect(renewalSweepState(null, at('2030-05-10T07:00:00Z'))).toBe('due');
    expect(renewalSweepState(at('2030-05-09T06:00:03Z'), at('2030-05-10T07:00:01Z'))).toBe('late');
    expect(renewalSweepState(null, at('2030-05-10T12:00:00Z'))).toBe('late');

    // The same rule against the real marker (the start-up sweep's), at chosen times of the day after it.
    const redis = createRedis(runtime.config.REDIS_URL, 'client');
    try {
      const lastSweep = Number(await waitFor(() => redis.get(runtime.queues.renewals.toKey('last-sweep-at')), 15_000, 'sweep marker'));
      const dayAfter = new Date(lastSweep + 86_400_000).toISOString().slice(0, 10);
      const check = (now: string, closing = false) =>
        workerHealth({ db: runtime.db, redis, workers: runtime.workers, renewals: runtime.queues.renewals, closing: () => closing, now: () => at(now) }).ready();
      const late = await check(`${dayAfter}T08:00:00Z`);
      expect(late).toMatchObject({ ok: false, body: { status: 'not ready', checks: { postgres: 'ok', redis: 'ok', renewalSweep: 'late' } } });
      const due = await check(`${dayAfter}T06:10:00Z`);
      expect(due).toMatchObject({ ok: true, body: { status: 'ready', checks: { renewalSweep: 'due' } } });
      const closing = await check(new Date(lastSweep + 1000).toISOString(), true);
      expect(closing).toMatchObject({ ok: false, body: { status: 'closing', checks: { renewalSweep: 'ok' } } });
      // A process that does not consume renewals (or has no card payments) does not check the sweep.
      const other = await workerHealth({ db: runtime.db, redis, workers: runtime.workers, renewals: null, closing: () => false, now: () => at(`${dayAfter}T08:00:00Z`) }).ready();
      expect(other).toMatchObject({ ok: true, body: { checks: { renewalSweep: 'not checked' } } });
    } finally {
      redis.disconnect();
    }
  });
});
