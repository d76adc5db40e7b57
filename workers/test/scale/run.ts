/**
 * `npm run test:scale` (after `npm run build`): the shop scaled out on this machine, and what must hold
 * when it is (issue 24, docs/decisions/scale-out.md "test:scale"). Prints a table of the checks and
 * `N passed, M failed`; exits 1 on any failure. Every process, temporary folder, the database and the
 * Redis Cluster it made are removed at the end, whatever happened. SCALE_VERBOSE=1 shows the processes' logs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Queue } from 'bullmq';
import { createDb } from '@nh/server/db/client';
import { LocalSandboxGateway } from '@nh/server/payments';
import { createQueue, QUEUE_NAMES, type QueueName } from '@nh/server/runtime/queues';
import { REPO_ROOT } from '../../src/lib/config';
import {
  eleventhSignInRefused,
  exportAcrossApis,
  priceChangeVisible,
  sessionAcrossApis,
  sigtermUnderLoad,
  signInOwner,
  type CheckResult,
} from './checks-api';
import { oneSchedulerPerSchedule, outboxOneToOne, twoSweepsChargeOnce, type WorkerRig } from './checks-workers';
import { connectionsTo, killAll } from './processes';
import { POOL_MAX, startStack, type Stack } from './stack';

interface Row {
  name: string;
  result: CheckResult;
  ms: number;
}

/** The most connections each process held to PgBouncer (and directly to Postgres), sampled every 100 ms. */
function sampleConnections(stack: Stack) {
  const direct = Number(new URL(stack.directUrl).port || 5432);
  const peaks = new Map<string, { pooled: number; direct: number }>();
  let samples = 0;
  const timer = setInterval(() => {
    samples++;
    for (const { name, proc } of [
      ...stack.apis.map((a) => ({ name: a.name, proc: a.proc })),
      ...stack.workers.map((w) => ({ name: w.name, proc: w.proc })),
    ]) {
      const pid = proc?.child.pid;
      if (!pid || proc.child.exitCode !== null) continue;
      const peak = peaks.get(name) ?? { pooled: 0, direct: 0 };
      peak.pooled = Math.max(peak.pooled, connectionsTo(pid, stack.pgbouncerPort));
      peak.direct = Math.max(peak.direct, connectionsTo(pid, direct));
      peaks.set(name, peak);
    }
  }, 100);
  return {
    stop: (): CheckResult => {
      clearInterval(timer);
      const over = [...peaks].filter(([, p]) => p.pooled > POOL_MAX);
      return {
        ok: samples > 10 && peaks.size === 4 && over.length === 0,
        detail: `peak through PgBouncer (direct) per process, ${samples} samples: ${[...peaks].map(([n, p]) => `${n} ${p.pooled} (${p.direct})`).join(', ')}; DATABASE_POOL_MAX ${POOL_MAX}`,
      };
    },
  };
}

function printTable(rows: Row[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`\n${'check'.padEnd(width)}  result  time    detail`);
  for (const row of rows)
    console.log(
      `${row.name.padEnd(width)}  ${row.result.ok ? 'pass  ' : 'FAIL  '}  ${`${(row.ms / 1000).toFixed(1)}s`.padEnd(6)}  ${row.result.detail}`,
    );
  const failed = rows.filter((r) => !r.result.ok).length;
  console.log(`\n${rows.length - failed} passed, ${failed} failed`);
}

async function main(): Promise<number> {
  for (const built of ['api/dist/main.js', 'workers/dist/main.js', 'migrations/dist/migrate.js'])
    if (!fs.existsSync(path.join(REPO_ROOT, built))) throw new Error(`${built} is missing: run npm run build first`);
  const started = Date.now();
  const stack = await startStack(REPO_ROOT, (close) => (teardown = close));
  console.log(
    `stack up in ${((Date.now() - started) / 1000).toFixed(1)} s: PgBouncer :${stack.pgbouncerPort}, HAProxy ${stack.proxy.url}, ${stack.apis.map((a) => `${a.name} :${a.port}`).join(', ')}, ${stack.workers.length} workers, ${stack.redis.description}`,
  );
  const db = createDb({ url: stack.directUrl, max: 3, applicationName: 'nurture-home-scale-test' });
  const redis = stack.redis.client;
  const queues = Object.fromEntries(QUEUE_NAMES.map((n) => [n, createQueue(n, redis, stack.queuePrefix)])) as Record<QueueName, Queue>;
  const sandbox = new LocalSandboxGateway({ redis, keyPrefix: stack.queuePrefix, latencyMs: 0, settleAfterMinutes: 10 });
  const rig: WorkerRig = { db, redis, queues, sandbox };
  const connections = sampleConnections(stack);
  const rows: Row[] = [];
  const check = async (name: string, run: () => Promise<CheckResult>) => {
    const t = Date.now();
    const result = await run().catch((error: unknown): CheckResult => ({
      ok: false,
      detail: `error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 600),
    }));
    rows.push({ name, result, ms: Date.now() - t });
    console.log(`${result.ok ? 'pass' : 'FAIL'}  ${name}`);
  };
  try {
    const cookie = await signInOwner(stack.proxy.url, '198.51.100.20');
    await check('staff session holds across both APIs', () => sessionAcrossApis(stack));
    await check('11th failed sign-in refused across both APIs', () => eleventhSignInRefused(stack));
    await check('price change shows on the other API within the cache time', () => priceChangeVisible(stack, cookie));
    await check('two renewal sweeps at once charge each plan once', () => twoSweepsChargeOnce(stack, rig));
    await check('export started on one API downloads through the other', () => exportAcrossApis(stack, cookie));
    await check('outbox rows map one-to-one to jobs, SIGKILL of a worker mid-batch', () => outboxOneToOne(stack, rig));
    await check('one scheduler per schedule after three worker restarts', () => oneSchedulerPerSchedule(stack, rig));
    await check('SIGTERM of one API under load: 0 failed requests at the proxy', () => sigtermUnderLoad(stack, cookie));
    rows.push({ name: 'connections per process within DATABASE_POOL_MAX', result: connections.stop(), ms: Date.now() - started });
  } finally {
    connections.stop();
    await Promise.all(Object.values(queues).map((q) => q.obliterate({ force: true }).catch(() => {})));
    await Promise.all(Object.values(queues).map((q) => q.close()));
    // The sandbox's and the limits' keys under the run's prefix.
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${stack.queuePrefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      if ((cursor = next) === '0') break;
    }
    redis.disconnect();
    await db.$client.end();
    await stack.close();
  }
  printTable(rows);
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return rows.every((r) => r.result.ok) ? 0 : 1;
}

// Interrupted or crashed: the processes, the services and the database still go. A Ctrl-C reaches the
// whole process group, often twice (a wrapper relays it): every signal after the first is ignored.
let teardown: (() => Promise<void>) | null = null;
let aborting = false;
const abort = (why: string, code: number) => {
  if (aborting) return;
  aborting = true;
  console.error(why);
  void Promise.resolve(teardown?.())
    .catch(() => {})
    .finally(() => void killAll().finally(() => process.exit(code)));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => abort(`test:scale: ${signal}, cleaning up`, 130));
process.on('uncaughtException', (error) => abort(`test:scale: ${error.stack ?? String(error)}`, 1));

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(`test:scale could not run: ${error instanceof Error ? error.stack : String(error)}`);
    await killAll();
    process.exit(1);
  },
);
