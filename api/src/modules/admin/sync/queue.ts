import type { Queue } from 'bullmq';
import { createQueue, type QueueName } from '@nh/server/runtime/queues';
import type { AppContext } from '../../../lib/context';

/**
 * A producer/inspector handle on a queue, made on first use from the API's Redis connection (so an API
 * whose staff never open the sync panel opens no queue). The sync area makes one per app.
 */
export function lazyQueue(ctx: Pick<AppContext, 'config' | 'redis'>, name: QueueName): () => Queue {
  let queue: Queue | null = null;
  return () => {
    if (!queue) {
      queue = createQueue(name, ctx.redis, ctx.config.QUEUE_PREFIX);
      queue.on('error', () => {});
    }
    return queue;
  };
}
