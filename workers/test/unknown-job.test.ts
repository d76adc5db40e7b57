/**
 * A job name a worker does not know (issue 24, deploys without errors): during a rolling deploy the new
 * API or relay adds a job only the new workers know; an old worker that takes it puts it back, delayed,
 * and a worker that knows the name runs it later. Real BullMQ workers on the test Redis.
 */
import { randomBytes } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '@nh/server/observability/logger';
import { createQueue } from '@nh/server/runtime/queues';
import { createRedis } from '@nh/server/runtime/redis';
import { defineJob, defineQueue, queueProcessor, type JobContext } from '../src/jobs/define';
import { purgeQueuePrefix, waitFor, sleep } from './support/setup';

const redisUrl = inject('redisUrl');
const prefix = `${inject('queuePrefix')}-unknown-${randomBytes(2).toString('hex')}`;
const producer = createRedis(redisUrl, 'client');
const queue = createQueue('maintenance', producer, prefix);
const opened: Worker[] = [];
// The processor's context: only its logger is used by these handlers.
const ctx = { log: createLogger('unknown-job-test', 'silent') } as JobContext;

const newJob = defineJob({
  name: 'brand-new-job',
  queue: 'maintenance',
  payload: z.object({ n: z.number() }),
  handler: () => async (_job, { n }) => ({ doubled: n * 2 }),
});

function startWorker(jobs: ReadonlyArray<typeof newJob>, policy = { retryMs: 200, giveUpMs: 60_000 }): Worker {
  const definition = defineQueue({ name: 'maintenance', jobs, worker: () => ({}) });
  const worker = new Worker('maintenance', queueProcessor(definition, ctx, policy), { connection: createRedis(redisUrl, 'worker'), prefix });
  opened.push(worker);
  return worker;
}

afterAll(async () => {
  await Promise.all(opened.map((w) => w.close()));
  await queue.close();
  producer.disconnect();
  await purgeQueuePrefix(redisUrl, prefix);
});

describe('a job name the worker does not know', () => {
  it('is delayed and retried by the old worker (never failed, no attempt spent), then run by a worker that knows it', async () => {
    const old = startWorker([]);
    let failed = 0;
    old.on('failed', () => failed++);
    const job = await queue.add('brand-new-job', { n: 21 });

    await waitFor(async () => (await job.getState()) === 'delayed', 10_000, 'put back, delayed');
    // Taken and put back more than once while only the old worker runs.
    await sleep(700);
    const meanwhile = (await queue.getJob(job.id!)) as Job;
    expect(['delayed', 'waiting', 'active']).toContain(await meanwhile.getState());
    expect(meanwhile.attemptsMade).toBe(0);
    expect(meanwhile.failedReason).toBeFalsy();
    expect(failed).toBe(0);

    // The deploy reaches the workers: the old one stops, a new one knows the name.
    await old.close();
    const knowing = startWorker([newJob]);
    await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'completed by the new worker');
    expect(((await queue.getJob(job.id!)) as Job).returnvalue).toEqual({ doubled: 42 });
    expect(failed).toBe(0);
    // Closed here, not after the file: it gives up on unknown names only after a minute, so left running it
    // could take the next test's job and keep putting it back (seen in a fresh-clone run).
    await knowing.close();
  });

  it('fails for good only once older than the give-up age (a name no version knows)', async () => {
    const worker = startWorker([], { retryMs: 200, giveUpMs: 0 });
    const job = await queue.add('no-such-job', {});
    await waitFor(async () => (await job.getState()) === 'failed', 10_000, 'failed');
    expect(((await queue.getJob(job.id!)) as Job).failedReason).toMatch(/no handler for job "no-such-job" on the maintenance queue/);
    await worker.close();
  });
});
