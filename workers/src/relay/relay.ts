/**
 * The outbox relay: claims unpublished outbox rows (`FOR UPDATE SKIP LOCKED`, so several relays are
 * safe), adds their jobs to BullMQ, marks the rows published and commits. If Redis is down the
 * transaction rolls back and the rows wait for the next attempt. It wakes on Postgres NOTIFY (a
 * dedicated LISTEN connection that reconnects by itself) and also sweeps on an interval. Its statements
 * (the claim, the LISTEN, the backlog) are @nh/server queries/outbox.ts's.
 *
 * With tracing on, a row written inside a span (`trace_parent`) gets a span `outbox relay` in that trace,
 * from the claim to the commit, and its jobs carry the traceparent (routes.ts): the relay's step shows in
 * the request's trace, and the jobs' spans are children of the span that wrote the row.
 */
import type { Queue } from 'bullmq';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { commitTransaction, rollbackTransaction } from '@nh/server/queries/transaction';
import { listenToOutbox, outboxClaimer, outboxListener, type ClaimedOutboxRow, type OutboxListener } from '@nh/server/queries/outbox';
import { recordSpan } from '@nh/server/observability/tracing';
import type { QueueName } from '@nh/server/runtime/queues';
import type { WorkerConfig } from '../lib/config';
import { createJobPlanner, type JobPlanner, type PlannedJob } from './routes';

const ENQUEUE_TIMEOUT_MS = 5000;
const LISTEN_RECONNECT_MS = 1000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface RelayDeps {
  db: Db;
  queues: Record<QueueName, Queue>;
  config: WorkerConfig;
  log: Logger;
}

export class OutboxRelay {
  private sweepTimer: NodeJS.Timeout | null = null;
  private listener: OutboxListener | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private coalesceTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Rows moved since start (for logs and tests). */
  published = 0;
  private readonly planner: JobPlanner;
  private readonly claim: ReturnType<typeof outboxClaimer>;

  /** Where the LISTEN connection goes: a session of its own, so never through a pooler in transaction mode. */
  private get listenUrl(): string | null {
    const { DATABASE_DIRECT_URL, DATABASE_POOLED, DATABASE_URL } = this.deps.config;
    return DATABASE_DIRECT_URL ?? (DATABASE_POOLED ? null : DATABASE_URL);
  }

  constructor(private readonly deps: RelayDeps) {
    this.planner = createJobPlanner(deps.config);
    this.claim = outboxClaimer(this.planner.topics, deps.config.RELAY_BATCH_SIZE);
  }

  start(): void {
    this.stopped = false;
    if (this.listenUrl) void this.listen();
    else this.deps.log.info({ sweepMs: this.deps.config.RELAY_SWEEP_MS }, 'outbox relay: DATABASE_URL is a pooler (DATABASE_POOLED) and no DATABASE_DIRECT_URL is set, so no LISTEN: the relay sweeps the outbox every RELAY_SWEEP_MS');
    this.sweepTimer = setInterval(() => this.trigger(), this.deps.config.RELAY_SWEEP_MS);
    this.trigger();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.coalesceTimer) clearTimeout(this.coalesceTimer);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    await this.running;
  }

  /**
   * A row was written. With RELAY_COALESCE_MS, the relay waits that long first so the orders written
   * meanwhile travel in the same batch (one claim and one commit for all of them, not for each).
   */
  private notified(): void {
    const wait = this.deps.config.RELAY_COALESCE_MS;
    if (wait <= 0) return this.trigger();
    this.coalesceTimer ??= setTimeout(() => {
      this.coalesceTimer = null;
      this.trigger();
    }, wait);
  }

  /** Runs the relay now, or once more right after the run in progress. */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.trigger();
      }
    });
  }

  /** Moves batches until the outbox holds no unpublished row this relay can claim. */
  async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.moveBatch()) === this.deps.config.RELAY_BATCH_SIZE);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'outbox relay: batch not moved; will retry');
    }
  }

  /**
   * One transaction: claim and mark published, enqueue, commit. Returns the number of rows claimed.
   * Two round trips: the claim opens the transaction and marks the rows in one message (the marks stay
   * invisible, and the rows locked, until the jobs are in Redis and the commit lands; a failed enqueue
   * rolls them back), then the commit.
   */
  async moveBatch(): Promise<number> {
    const { db, log } = this.deps;
    const startTime = Date.now();
    const client = await db.$client.connect();
    try {
      // RETURNING keeps no order: jobs go out in the order the rows were written.
      const rows = (await this.claim(client)).sort((a, b) => Number(a.id) - Number(b.id));
      if (rows.length === 0) {
        await commitTransaction(client);
        return 0;
      }
      const byQueue = new Map<QueueName, PlannedJob[]>();
      /** The rows written inside a span (tracing on), with their jobs: each gets its span once committed. */
      const traced = new Map<ClaimedOutboxRow, PlannedJob[]>();
      for (const row of rows) {
        let jobs: PlannedJob[] = [];
        try {
          jobs = this.planner.plan(row);
        } catch (error) {
          // A payload that does not parse never will: publish the row (no jobs) and say so loudly.
          log.error({ outboxId: row.id, topic: row.topic, err: (error as Error).message }, 'outbox row has an invalid payload; skipped');
        }
        for (const job of jobs) byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
        if (row.trace_parent) traced.set(row, jobs);
      }
      await withTimeout(
        Promise.all([...byQueue].map(([queue, jobs]) => this.deps.queues[queue].addBulk(jobs.map(({ name, data, opts }) => ({ name, data, opts }))))),
        ENQUEUE_TIMEOUT_MS,
        'enqueue',
      );
      await commitTransaction(client);
      const endTime = Date.now();
      for (const [row, jobs] of traced) {
        const attributes = { 'messaging.system': 'bullmq', 'nh.outbox.id': Number(row.id), 'nh.outbox.topic': row.topic, 'nh.outbox.jobs': jobs.map((j) => j.name).join(',') };
        recordSpan('outbox relay', { kind: 'producer', parent: row.trace_parent, startTime, endTime, attributes });
      }
      this.published += rows.length;
      log.debug({ rows: rows.length, firstId: rows[0]!.id }, 'outbox rows relayed');
      return rows.length;
    } catch (error) {
      await rollbackTransaction(client).catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = outboxListener(this.listenUrl!);
    const retry = () => {
      if (this.listener === client) this.listener = null;
      client.removeAllListeners();
      client.on('error', () => {});
      void client.end().catch(() => {});
      if (this.stopped || this.reconnectTimer) return;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        void this.listen();
      }, LISTEN_RECONNECT_MS);
    };
    client.on('notification', () => this.notified());
    client.on('error', (err) => {
      this.deps.log.warn({ err: err.message }, 'outbox relay: LISTEN connection lost; reconnecting');
      retry();
    });
    client.on('end', retry);
    try {
      await listenToOutbox(client);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.listener = client;
      // Rows written while we were not listening.
      this.trigger();
    } catch (error) {
      this.deps.log.warn({ err: (error as Error).message }, 'outbox relay: cannot LISTEN; retrying');
      retry();
    }
  }
}
