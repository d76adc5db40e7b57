/**
 * What each outbox topic becomes: zero or more jobs, built from the job definitions' `topics`
 * (registry/queues.ts), each with its definition's options and an id derived from the outbox row id, so
 * a relay that crashes between enqueue and commit re-adds the same ids (which BullMQ ignores). A row
 * written by an API request gives its jobs that request's id (`_trace` in the job's data, which the
 * queue processor removes before parsing the payload), and a row written while tracing was on the
 * `traceparent` of the span that wrote it (`_trace.traceParent`: the job's span is its child).
 */
import { outboxPayloads, type OutboxTopic } from '@nh/shared/contracts/outbox';
import { outboxJobId, withJobTrace } from '@nh/server/jobs/contract';
import type { ClaimedOutboxRow } from '@nh/server/queries/outbox';
import type { QueueName } from '@nh/server/runtime/queues';
import type { JobsOptions } from 'bullmq';
import type { WorkerConfig } from '../lib/config';
import type { AnyJobDefinition } from '../jobs/define';
import { JOBS } from '../registry/queues';

export interface PlannedJob {
  queue: QueueName;
  name: string;
  data: unknown;
  opts: JobsOptions;
}

interface Route {
  job: AnyJobDefinition;
  data: (payload: unknown) => unknown;
}

export interface JobPlanner {
  /** Topics this relay knows; rows of other topics stay unpublished for a newer relay. */
  topics: string[];
  /** Jobs for one outbox row; throws for a payload that does not parse (the caller logs it and publishes the row). */
  plan: (row: ClaimedOutboxRow) => PlannedJob[];
}

/** The topic-to-job map of `jobs`; each job's options come from `config`. */
export function createJobPlanner(config: WorkerConfig, jobs: readonly AnyJobDefinition[] = JOBS): JobPlanner {
  const routes = new Map<string, Route[]>();
  for (const job of jobs) {
    for (const [topic, data] of Object.entries(job.topics ?? {})) {
      routes.set(topic, [...(routes.get(topic) ?? []), { job, data: data as Route['data'] }]);
    }
  }
  return {
    topics: [...routes.keys()],
    plan(row) {
      const jobsOfTopic = routes.get(row.topic);
      if (!jobsOfTopic) return [];
      const payload = outboxPayloads[row.topic as OutboxTopic].parse(row.payload);
      return jobsOfTopic.map(({ job, data }) => ({
        queue: job.queue,
        name: job.name,
        data: withJobTrace(data(payload), row.request_id, row.trace_parent),
        opts: { ...job.options?.(config), jobId: (job.topicJobIds?.[row.topic as OutboxTopic] as ((p: unknown) => string) | undefined)?.(payload) ?? outboxJobId(row.id, job.name) },
      }));
    },
  };
}
