import type { Queue } from 'bullmq';
import { createQueue, type QueueName } from '@nh/server/queues';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';

const queuesOf = perApp(() => new Map<QueueName, Queue>());

/** A producer/inspector handle on a queue, made on first use from the API's Redis connection. */
export function apiQueue(ctx: AppContext, name: QueueName): Queue {
  const queues = queuesOf(ctx);
  let queue = queues.get(name);
  if (!queue) {
    queue = createQueue(name, ctx.redis, ctx.config.QUEUE_PREFIX);
    queue.on('error', () => {});
    queues.set(name, queue);
  }
  return queue;
}
