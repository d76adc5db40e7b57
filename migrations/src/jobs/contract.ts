/**
 * What a producer needs to know of a BullMQ job: its name, queue, payload schema, options (attempts,
 * backoff), the outbox topics it is made from, its schedule and its job-id builder. Its handler is
 * not part of it: the workers add one (workers/src/jobs/define.ts `defineJob`).
 *
 * A job that only the workers add (the relay, a sweep, a schedule) is defined in one file in workers,
 * contract and handler together. A job another process adds directly keeps its contract in this folder
 * (one file per job), so that process imports it without any worker code.
 */
import type { JobsOptions } from 'bullmq';
import type { z } from 'zod';
import type { OutboxPayload, OutboxTopic } from '@nh/shared/contracts/outbox';
import type { QueueName } from '../runtime/queues';

/** For each outbox topic that makes this job: the job's payload from the topic's (parsed) payload. */
export type TopicMap<Data> = { readonly [T in OutboxTopic]?: (payload: OutboxPayload<T>) => Data };

/** A repeating job: registered with `upsertJobScheduler(id, { pattern, tz: 'UTC' }, { name, data: {} })`. */
export interface JobSchedule {
  /** The scheduler's key in Redis: stable, never reused for another job. */
  readonly id: string;
  /** Cron pattern, UTC. */
  readonly pattern: string;
}

export interface JobContract<
  N extends string = string,
  Q extends QueueName = QueueName,
  S extends z.ZodType = z.ZodType,
  Settings = unknown,
  IdArgs extends unknown[] = never,
> {
  readonly name: N;
  readonly queue: Q;
  /** Ids only, never documents or secrets: the handler re-reads the database. */
  readonly payload: S;
  /**
   * Attempts and backoff, from the process's settings (env). Absent: BullMQ's defaults (one attempt).
   * Keeping completed and failed jobs is the queues' default (`KEEP_JOBS` in queues.ts).
   */
  readonly options?: (settings: Settings) => JobsOptions;
  /** The outbox topics the relay turns into this job; its job id is then `outboxJobId(row id, name)`. */
  readonly topics?: TopicMap<z.input<S>>;
  /**
   * For a topic whose job must share its id with another producer's (ship now and the sweep's renew job
   * of one period): the job id from the row's payload, instead of `outboxJobId`. Deterministic, so a
   * relay that crashes between enqueue and commit re-adds the same id all the same.
   */
  readonly topicJobIds?: { readonly [T in OutboxTopic]?: (payload: OutboxPayload<T>) => string };
  /** When the job repeats (registered by worker processes consuming its queue). */
  readonly schedule?: JobSchedule;
  /** The job id for a producer other than the relay (a sweep): deterministic, so a second add is ignored. */
  readonly jobId?: [IdArgs] extends [never] ? undefined : (...args: IdArgs) => string;
}

/** Any job contract, whatever its payload and settings. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobContract = JobContract<string, QueueName, z.ZodType, any, any>;

/** A definition given a `jobId` builder keeps it as a member that is there. */
export type WithJobId<IdArgs extends unknown[]> = [IdArgs] extends [never] ? unknown : { readonly jobId: (...args: IdArgs) => string };

/** Checks a contract's shape and keeps its literal types (name, queue, payload, settings, id arguments). */
export function defineJobContract<
  const N extends string,
  const Q extends QueueName,
  S extends z.ZodType,
  Settings = unknown,
  IdArgs extends unknown[] = never,
>(contract: JobContract<N, Q, S, Settings, IdArgs>): JobContract<N, Q, S, Settings, IdArgs> & WithJobId<IdArgs> {
  return contract as JobContract<N, Q, S, Settings, IdArgs> & WithJobId<IdArgs>;
}

/**
 * A BullMQ custom job id: it deduplicates while the earlier job exists, and may neither contain ':' nor
 * be all digits, so every id gets a word prefix and only safe characters.
 */
export function jobId(...parts: Array<string | number>): string {
  const id = parts.map((part) => String(part).replace(/[^A-Za-z0-9_-]/g, '_')).join('-');
  if (/^\d+$/.test(id)) throw new Error(`job id may not be all digits: ${id}`);
  return id;
}

/**
 * The reserved key of a job's data where the relay puts what it knows of the work behind the outbox row
 * it came from: the request id (`{ ...payload, _trace: { requestId } }`) and, while tracing is on, the
 * `traceparent` of the span that wrote the row (`_trace: { requestId, traceParent }`). The queue
 * processor removes it before the payload is parsed (workers/src/jobs/define.ts), so no payload schema
 * ever sees it.
 */
export const JOB_TRACE_KEY = '_trace';

export interface JobTrace {
  requestId?: string;
  /** W3C trace context of the span the job continues (the one that wrote its outbox row). */
  traceParent?: string;
}

/** `data` with the trace of `requestId` and `traceParent` (the data as it is without either). */
export function withJobTrace(data: unknown, requestId: string | null | undefined, traceParent?: string | null): unknown {
  if ((!requestId && !traceParent) || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const trace: JobTrace = {};
  if (requestId) trace.requestId = requestId;
  if (traceParent) trace.traceParent = traceParent;
  return { ...data, [JOB_TRACE_KEY]: trace };
}

/** A job's data without its trace, the trace's request id and its traceparent (null when it has none). */
export function splitJobTrace(data: unknown): { data: unknown; requestId: string | null; traceParent: string | null } {
  if (typeof data !== 'object' || data === null || !(JOB_TRACE_KEY in data)) return { data, requestId: null, traceParent: null };
  const { [JOB_TRACE_KEY]: trace, ...rest } = data as Record<string, unknown>;
  const { requestId, traceParent } = (trace ?? {}) as Partial<Record<keyof JobTrace, unknown>>;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return { data: rest, requestId: text(requestId), traceParent: text(traceParent) };
}

/** One job per (outbox row, job): a relay crash between enqueue and commit re-adds the same id. */
export const outboxJobId = (outboxId: number, jobName: string) => jobId('outbox', outboxId, jobName);

/** One job to add (`queue.add(name, data, opts)` / `addBulk`), typed by its contract. */
export interface JobRequest<C extends AnyJobContract = AnyJobContract> {
  name: C['name'];
  data: z.input<C['payload']>;
  opts: JobsOptions & { jobId: string };
}

/** A job of `contract` with its options (from `settings`) and the given id: what every producer adds. */
export function jobRequest<C extends AnyJobContract>(
  contract: C,
  data: z.input<C['payload']>,
  settings: C extends JobContract<string, QueueName, z.ZodType, infer Settings, infer _IdArgs> ? Settings : never,
  id: string,
): JobRequest<C> {
  return { name: contract.name, data, opts: { ...contract.options?.(settings), jobId: id } };
}
