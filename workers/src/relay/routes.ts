/**
 * What each outbox topic becomes: zero or more jobs, each with an id derived from the outbox row id so
 * a relay that crashes between enqueue and commit re-adds the same ids (which BullMQ ignores).
 */
import { OUTBOX_TOPICS, outboxPayloads, type OutboxTopic } from '@nh/shared';
import { JITTER_BACKOFF, JOB_NAMES, JOB_QUEUE, jobIds, type JobName, type QueueName } from '@nh/server/queues';
import type { JobsOptions } from 'bullmq';
import type { WorkerConfig } from '../config';

export interface OutboxRow {
  id: number;
  topic: string;
  payload: unknown;
}

export interface PlannedJob {
  queue: QueueName;
  name: JobName;
  data: Record<string, unknown>;
  opts: JobsOptions;
}

type Mapper = (payload: unknown) => Array<{ name: JobName; data: Record<string, unknown> }>;

const routes: Partial<Record<OutboxTopic, Mapper>> = {
  [OUTBOX_TOPICS.orderPlaced]: (payload) => {
    const { orderId } = outboxPayloads[OUTBOX_TOPICS.orderPlaced].parse(payload);
    return [
      { name: JOB_NAMES.syncOrder, data: { orderId } },
      { name: JOB_NAMES.orderConfirmation, data: { orderId } },
    ];
  },
  [OUTBOX_TOPICS.orderShipped]: (payload) => {
    const { orderId } = outboxPayloads[OUTBOX_TOPICS.orderShipped].parse(payload);
    return [{ name: JOB_NAMES.orderShipped, data: { orderId } }];
  },
  [OUTBOX_TOPICS.orderSyncRequested]: (payload) => {
    const { orderId } = outboxPayloads[OUTBOX_TOPICS.orderSyncRequested].parse(payload);
    return [{ name: JOB_NAMES.syncOrder, data: { orderId } }];
  },
  [OUTBOX_TOPICS.newsletterSubscribed]: (payload) => {
    const { subscriberId } = outboxPayloads[OUTBOX_TOPICS.newsletterSubscribed].parse(payload);
    return [{ name: JOB_NAMES.newsletterWelcome, data: { subscriberId } }];
  },
  [OUTBOX_TOPICS.exportRequested]: (payload) => {
    const { exportId } = outboxPayloads[OUTBOX_TOPICS.exportRequested].parse(payload);
    return [{ name: JOB_NAMES.exportOrders, data: { exportId } }];
  },
  // The subscription's first order arrives as order.placed (its confirmation); this is the plan's welcome.
  [OUTBOX_TOPICS.subscriptionCreated]: (payload) => {
    const { subscriptionId } = outboxPayloads[OUTBOX_TOPICS.subscriptionCreated].parse(payload);
    return [{ name: JOB_NAMES.subscriptionWelcome, data: { subscriptionId } }];
  },
  [OUTBOX_TOPICS.subscriptionPaused]: (payload) => {
    const { subscriptionId, period } = outboxPayloads[OUTBOX_TOPICS.subscriptionPaused].parse(payload);
    return [{ name: JOB_NAMES.subscriptionPaused, data: { subscriptionId, period } }];
  },
  // A plan resumed with a new card is charged for its unpaid period now, not at the next daily sweep.
  // The renew job re-checks status, due date and period on the locked row, so a stale one charges nothing.
  [OUTBOX_TOPICS.subscriptionResumed]: (payload) => {
    const { subscriptionId, period } = outboxPayloads[OUTBOX_TOPICS.subscriptionResumed].parse(payload);
    return [{ name: JOB_NAMES.renewSubscription, data: { subscriptionId, period, resumed: true } }];
  },
};

/** Topics this relay knows; rows of other topics stay unpublished for a newer relay. */
export const RELAYED_TOPICS = Object.keys(routes);

export function jobOptions(name: JobName, config: WorkerConfig): JobsOptions {
  switch (JOB_QUEUE[name]) {
    case 'erp-sync':
      return { attempts: config.ERP_SYNC_ATTEMPTS, backoff: { type: JITTER_BACKOFF, delay: config.ERP_SYNC_BACKOFF_MS } };
    case 'emails':
      return { attempts: config.EMAIL_ATTEMPTS, backoff: { type: 'exponential', delay: config.EMAIL_BACKOFF_MS } };
    case 'renewals':
      // A renew job that fails before its charge rolled back and may run again; after the charge its
      // payment row is pending, so a rerun only reports it for staff and never charges again.
      return name === JOB_NAMES.renewSubscription
        ? { attempts: config.RENEWAL_JOB_ATTEMPTS, backoff: { type: 'exponential', delay: config.RENEWAL_JOB_BACKOFF_MS } }
        : { attempts: 1 };
    default:
      return { attempts: 1 };
  }
}

/** Jobs for one outbox row; a row whose payload does not parse yields none (and is logged by the caller). */
export function planJobs(row: OutboxRow, config: WorkerConfig): PlannedJob[] {
  const mapper = routes[row.topic as OutboxTopic];
  if (!mapper) return [];
  return mapper(row.payload).map(({ name, data }) => ({
    queue: JOB_QUEUE[name],
    name,
    data,
    opts: { ...jobOptions(name, config), jobId: jobIds.fromOutbox(row.id, name) },
  }));
}
