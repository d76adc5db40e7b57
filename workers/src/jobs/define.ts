/**
 * A job is defined once: `defineJob({ name, queue, payload, options, topics, schedule, jobId, handler })`
 * (a contract from @nh/server/jobs spread in, or written in place), and listed in its queue's registry
 * (`defineQueue`, one `queue.ts` per queue folder; all of them in ../registry/queues.ts). From those lists
 * the runtime builds each queue's processor (`queueProcessor`), the relay its topic-to-job map and the
 * schedules their registrations: nothing else names a job.
 */
import type { TaxCalculator } from '@nh/server/tax';
import { DelayedError, UnrecoverableError, type Job, type Processor, type Queue, type Worker, type WorkerOptions } from 'bullmq';
import type { z } from 'zod';
import { withLogFields, type Logger } from '@nh/server/observability/logger';
import type { Db } from '@nh/server/db/client';
import type { RedisClient } from '@nh/server/runtime/redis';
import { splitJobTrace, type JobContract, type WithJobId } from '@nh/server/jobs/contract';
import { jobDuration, jobFailures } from '@nh/server/observability/metrics';
import { runWithRequestId } from '@nh/server/observability/request-context';
import { inSpan, tracingOn } from '@nh/server/observability/tracing';
import type { PaymentGateway } from '@nh/server/payments';
import type { FileStorage } from '@nh/server/storage';
import type { QueueName } from '@nh/server/runtime/queues';
import type { WorkerConfig } from '../lib/config';

/**
 * What a worker process offers every handler (made once, in runtime.ts). A queue whose handlers need
 * more (the emails' mailer, the sync's NetSuite client) defines its jobs with `jobDefiner<JobContext & {…}>()`;
 * the registry checks that the runtime's context has all of it.
 */
export interface JobContext {
  config: WorkerConfig;
  db: Db;
  /** DATABASE_READ_URL's replica, or `db` itself when it is unset: only for reads that may lag (exports). */
  readDb: Db;
  log: Logger;
  /** Producer handles on every queue (a sweep adds jobs). */
  queues: Record<QueueName, Queue>;
  /** The producers' Redis connection (fails fast). */
  redis: RedisClient;
  /** null when card payments are not configured (or no consumed queue needs them). */
  gateway: PaymentGateway | null;
  /** Where export files are written and deleted (EXPORTS_DIR, or the bucket of STORAGE_URL; the API reads the same). */
  exportFiles: FileStorage;
  /** The private store of claims' photos (CLAIM_PHOTOS_DIR, or the bucket's `claims/`): housekeeping deletes the ones no claim names. */
  claimPhotos: FileStorage;
  /** Sales tax by destination (TAX_MODE, issue 25): each renewal's tax for the plan's address. */
  tax: TaxCalculator;
  /** The BullMQ worker of a queue this process consumes (for `rateLimit`). */
  worker: (queue: QueueName) => Worker;
}

/** Runs one job: `data` is its payload, already parsed with the job's schema. */
export type JobHandler<Data, Result = unknown> = (job: Job, data: Data) => Promise<Result>;

export interface JobDefinition<
  N extends string = string,
  Q extends QueueName = QueueName,
  S extends z.ZodType = z.ZodType,
  Result = unknown,
  IdArgs extends unknown[] = never,
  Ctx extends JobContext = JobContext,
> extends JobContract<N, Q, S, WorkerConfig, IdArgs> {
  /** Makes the job's handler once per worker process, from what the process offers. */
  readonly handler: (ctx: Ctx) => JobHandler<z.output<S>, Result>;
}

/**
 * Any job definition (registries hold several payload types; each handler gets what its own schema
 * parsed). Without `Ctx`, one whose handler is not called here (the relay's and the schedules' lists).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyJobDefinition<Q extends QueueName = QueueName, Ctx extends JobContext = never> = Omit<JobDefinition<string, Q, z.ZodType, unknown, any>, 'handler'> & {
  readonly handler: (ctx: Ctx) => JobHandler<any>;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

/** `defineJob` for handlers given `Ctx`: what every job gets and what their queue adds (`JobContext & { mailer: Mailer }`). */
export function jobDefiner<Ctx extends JobContext>() {
  return <const N extends string, const Q extends QueueName, S extends z.ZodType, Result, IdArgs extends unknown[] = never>(
    definition: JobDefinition<N, Q, S, Result, IdArgs, Ctx>,
  ): JobDefinition<N, Q, S, Result, IdArgs, Ctx> & WithJobId<IdArgs> => definition as JobDefinition<N, Q, S, Result, IdArgs, Ctx> & WithJobId<IdArgs>;
}

export const defineJob = jobDefiner<JobContext>();

export interface QueueDefinition<Q extends QueueName = QueueName, Ctx extends JobContext = JobContext> {
  readonly name: Q;
  /** Every job that runs on this queue: its registry. */
  readonly jobs: ReadonlyArray<AnyJobDefinition<Q, Ctx>>;
  /** This queue's worker options (concurrency, locks, backoff strategies); the runtime adds connection, prefix and the default lock. */
  readonly worker: (config: WorkerConfig) => Partial<WorkerOptions>;
  /** Run by a process consuming this queue, before its worker starts. */
  readonly setup?: (queue: Queue, ctx: Ctx) => Promise<void>;
}

export function defineQueue<const Q extends QueueName, Ctx extends JobContext = JobContext>(queue: QueueDefinition<Q, Ctx>): QueueDefinition<Q, Ctx> {
  return queue;
}

/** A job span's attributes: what the job is, which attempt, and the request behind it. */
const jobSpanAttributes = (queue: QueueName, job: Job, requestId: string | null) => ({
  'messaging.system': 'bullmq',
  'messaging.operation.type': 'process',
  'messaging.destination.name': queue,
  'messaging.message.id': job.id,
  'nh.job.attempt': job.attemptsMade + 1,
  'nh.request_id': requestId ?? undefined,
});

/** The request id a job carries (the API request behind its outbox row), or null. */
export const jobRequestId = (job: Pick<Job, 'data'>): string | null => splitJobTrace(job.data).requestId;

/**
 * A job name this worker does not know is a newer producer's job during a rolling deploy (the new API or
 * relay writes it before every worker runs the new code): it is put back, delayed by `retryMs`, for a
 * worker that knows it, and only fails (for good) once it is `giveUpMs` old (a name no version knows).
 */
export interface UnknownJobPolicy {
  retryMs: number;
  giveUpMs: number;
}

export const UNKNOWN_JOB_POLICY: UnknownJobPolicy = { retryMs: 30_000, giveUpMs: 24 * 60 * 60_000 };

/**
 * The processor of one queue: the job's handler by its name, its payload parsed first. A job name the
 * queue does not define is delayed and retried (`UnknownJobPolicy`), not failed.
 *
 * Each attempt is timed (`nh_job_duration_seconds`; a failure also counts in `nh_job_failures_total`, a
 * job put back to wait its turn does not).
 * A job made from an outbox row written by an API request carries that request's id (the relay's
 * `_trace`, removed here before the payload is parsed): the attempt runs with it as the request id of
 * the work in progress, so every line any logger writes during the job (the handlers' own child
 * loggers included) has `reqId`, and the outbox rows the job writes keep it.
 *
 * With tracing on, each attempt is a span named after the job (kind consumer), the child of the span that
 * wrote the job's outbox row (`_trace.traceParent`) or the root of a trace of its own (schedules, sweeps):
 * the queries, NetSuite requests and mail the handler makes are its children. Off, the attempt just runs.
 */
export function queueProcessor<Ctx extends JobContext>(queue: QueueDefinition<QueueName, Ctx>, ctx: Ctx, unknownJobs: UnknownJobPolicy = UNKNOWN_JOB_POLICY): Processor {
  const handlers = new Map(queue.jobs.map((job) => [job.name, { payload: job.payload, handle: job.handler(ctx) }]));
  return async (job, token) => {
    const { data, requestId, traceParent } = splitJobTrace(job.data);
    const labels = { queue: queue.name, job_name: job.name };
    const end = jobDuration.startTimer(labels);
    const handler = handlers.get(job.name);
    if (!handler && Date.now() - job.timestamp < unknownJobs.giveUpMs) {
      ctx.log.warn({ queue: queue.name, jobId: job.id, job: job.name, retryInMs: unknownJobs.retryMs }, 'unknown job name (a newer version\'s job?): delayed for a worker that knows it');
      await job.moveToDelayed(Date.now() + unknownJobs.retryMs, token);
      end({ status: 'delayed' });
      throw new DelayedError();
    }
    const run = async () => {
      if (!handler) throw new UnrecoverableError(`no handler for job "${job.name}" on the ${queue.name} queue (kept retrying for ${Math.round(unknownJobs.giveUpMs / 60_000)} min)`);
      return handler.handle(job, handler.payload.parse(data));
    };
    const attempt = () => (requestId ? runWithRequestId(requestId, () => withLogFields({ reqId: requestId }, run)) : run());
    try {
      const result = await (tracingOn() ? inSpan(job.name, { kind: 'consumer', parent: traceParent, attributes: jobSpanAttributes(queue.name, job, requestId) }, attempt) : attempt());
      end({ status: 'completed' });
      return result;
    } catch (error) {
      // A job put back to wait its turn (DelayedError: another sync of the same order holds it) did not fail.
      if (error instanceof DelayedError) {
        end({ status: 'delayed' });
        throw error;
      }
      end({ status: 'failed' });
      jobFailures.inc(labels);
      throw error;
    }
  };
}
