// Operator command: `node --import ./workers/dist/instrument.js workers/dist/run-now.js <job>` (npm run
// worker:run-now -- <job>) adds one run of a scheduled job (any job with a `schedule`; without a name it
// lists them) for the workers. With tracing on, the command is the root span of a trace and the job's run its child.
import { createQueue, QUEUE_NAMES, type QueueName } from '@nh/server/runtime/queues';
import { createRedis } from '@nh/server/runtime/redis';
import { exitOnStartupError } from '@nh/server/runtime/env';
import { inSpan, shutdownTracing } from '@nh/server/observability/tracing';
import { loadWorkerConfig } from './lib/config';
import { RUNNABLE_NOW, runScheduledJobNow } from './schedules';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) {
    console.error(`usage: run-now <job>   (one of ${RUNNABLE_NOW.join(', ')})`);
    process.exit(2);
  }
  const config = loadWorkerConfig();
  const redis = createRedis(config);
  const queues = Object.fromEntries(QUEUE_NAMES.map((q) => [q, createQueue(q, redis, config.QUEUE_PREFIX)])) as Record<QueueName, ReturnType<typeof createQueue>>;
  try {
    const id = await inSpan(`run-now ${name}`, { kind: 'producer', parent: null, attributes: { 'nh.job.name': name } }, () => runScheduledJobNow(queues, name));
    console.log(`added ${name} as job ${id}; a worker consuming its queue runs it now`);
  } finally {
    await Promise.all(Object.values(queues).map((q) => q.close()));
    await redis.quit();
    await shutdownTracing();
  }
}

main().catch((error) => exitOnStartupError('run-now', error));
