/**
 * WORKER_NICE (docs/decisions/checkout.md, "Warm connections across bursts, and the worker's priority"):
 * the worker process lowers the CPU priority of every one of its threads at start, and threads it starts
 * later inherit it. Each case runs in a process of its own: the test runner's priority is never touched.
 * The values are relative to the runner's own (a child starts at its parent's), so a runner started under
 * `nice` tests the same.
 */
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/lib/config';
import { runModuleScript } from '@nh/server/testing/module-script';
import { createTestDatabase, processExited, sleep, spawnWorkerProcess, testWorkerEnv, waitFor, type TestDatabase } from './support/setup';
import { threadNices } from './support/thread-nices';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MODULE = path.join(ROOT, 'workers/src/lib/cpu-priority.ts');
const HELPER = path.join(ROOT, 'workers/test/support/thread-nices.ts');
/** The child scripts' imports: the module under test and the same thread reader as this file's. */
const IMPORTS = `const { lowerCpuPriority } = await import(${JSON.stringify(MODULE)});
      const { threadNices } = await import(${JSON.stringify(HELPER)});`;
/** The runner's nice value, which its children start at; the targets below are above it. */
const BASE = os.getPriority();
const TARGET = BASE + 4;
const HIGHER = BASE + 8;

/** Runs an ES module script in a child process; its stdout, parsed as JSON. */
async function runScript(script: string): Promise<unknown> {
  const { code, stdout, stderr } = await runModuleScript(script);
  if (code !== 0) throw new Error(`script exited ${code}: ${stderr}`);
  return JSON.parse(stdout);
}

describe('WORKER_NICE', () => {
  it('is 10 by default, 0 to 19, and refused outside that', () => {
    expect(loadWorkerConfig({}).WORKER_NICE).toBe(10);
    expect(loadWorkerConfig({ WORKER_NICE: '0' }).WORKER_NICE).toBe(0);
    expect(loadWorkerConfig({ WORKER_NICE: '19' }).WORKER_NICE).toBe(19);
    expect(() => loadWorkerConfig({ WORKER_NICE: '20' })).toThrow(/WORKER_NICE/);
    expect(() => loadWorkerConfig({ WORKER_NICE: '-5' })).toThrow(/WORKER_NICE/);
  });

  it('sets every thread the process has, and threads started later inherit it', async () => {
    expect(HIGHER, 'the test runner runs at nice 12 or more: no room above it').toBeLessThanOrEqual(19);
    const result = (await runScript(`
      import { Worker } from 'node:worker_threads';
      ${IMPORTS}
      const before = threadNices('self');
      const outcome = lowerCpuPriority(${TARGET});
      const after = threadNices('self');
      // A thread started now: its own priority, read from inside it.
      const child = await new Promise((resolve, reject) => {
        const w = new Worker("const { parentPort } = require('node:worker_threads'); parentPort.postMessage(require('node:os').getPriority());", { eval: true, execArgv: [] });
        w.once('message', (nice) => { resolve(nice); void w.terminate(); });
        w.once('error', reject);
      });
      console.log(JSON.stringify({ before, outcome, after, child }));
    `)) as { before: number[]; outcome: { nice: number; threads: number; failed: string[] }; after: number[]; child: number };
    expect(result.before.length).toBeGreaterThan(1);
    expect(result.before.every((n) => n === BASE)).toBe(true);
    expect(result.outcome).toEqual({ nice: TARGET, threads: result.before.length, failed: [] });
    expect(result.after).toEqual(result.before.map(() => TARGET));
    expect(result.child).toBe(TARGET);
  });

  it('keeps a thread already at a higher value (a process may lower its priority, not raise it)', async () => {
    const result = (await runScript(`
      import os from 'node:os';
      ${IMPORTS}
      os.setPriority(0, ${HIGHER});
      const outcome = lowerCpuPriority(${TARGET});
      console.log(JSON.stringify({ outcome, main: os.getPriority(), all: threadNices('self') }));
    `)) as { outcome: { nice: number; threads: number }; main: number; all: number[] };
    expect(result.main).toBe(HIGHER);
    expect(result.outcome.nice).toBe(HIGHER);
    expect(result.all.filter((n) => n === HIGHER)).toHaveLength(1);
    expect(result.all.filter((n) => n === TARGET)).toHaveLength(result.all.length - 1);
    expect(result.outcome.threads).toBe(result.all.length - 1);
  });

  describe('the worker process', () => {
    let tdb: TestDatabase;
    beforeAll(async () => {
      tdb = await createTestDatabase('nice');
    });
    afterAll(async () => {
      await tdb?.drop();
    });

    it('runs every thread at WORKER_NICE', async () => {
      const env = testWorkerEnv(tdb.url, 'nice', {
        WORKER_NICE: String(TARGET),
        WORKER_QUEUES: 'emails',
        RELAY_ENABLED: 'false',
        LOG_LEVEL: 'silent',
      });
      const child = spawnWorkerProcess(env);
      try {
        await waitFor(
          () => threadNices(child.pid!).length > 0 && threadNices(child.pid!).every((n) => n === TARGET),
          20_000,
          `every thread of the worker at nice ${TARGET}`,
        );
        // Still so once it runs (its connections and any threads started since).
        await sleep(1000);
        expect(threadNices(child.pid!).every((n) => n === TARGET)).toBe(true);
      } finally {
        child.kill('SIGTERM');
        await processExited(child);
      }
    }, 40_000);
  });
});
