import type { Queue } from 'bullmq';
import { createQueue, type QueueName } from '@nh/shared/server/queues';
import type { AppContext } from '../../context';

const queues = new WeakMap<AppContext, Map<QueueName, Queue>>();

/** A producer/inspector handle on a queue, made on first use from the API's Redis connection. */
export function apiQueue(ctx: AppContext, name: QueueName): Queue {
  let byName = queues.get(ctx);
  if (!byName) queues.set(ctx, (byName = new Map()));
  let queue = byName.get(name);
  if (!queue) {
    queue = createQueue(name, ctx.redis, ctx.config.QUEUE_PREFIX);
    queue.on('error', () => {});
    byName.set(name, queue);
  }
  return queue;
}
