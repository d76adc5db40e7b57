/**
 * The connection pool every process makes with createDb (docs/decisions/checkout.md, "Warm connections
 * across bursts, and the worker's priority"): a connection a burst opened stays open for a minute of idleness, so the next burst
 * finds it warm; and idle connections alone do not keep a process alive.
 */
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createDb, POOL_IDLE_MS } from '@nh/server/db/client';
import { runModuleScript } from '@nh/server/testing/module-script';

const CLIENT_MODULE = path.resolve(__dirname, '../../migrations/src/db/client.ts');

describe('createDb pool', () => {
  it('keeps an idle connection open for a minute, not pg’s 10 s', async () => {
    const db = createDb({ url: inject('databaseUrl'), max: 2 });
    try {
      expect(POOL_IDLE_MS).toBe(60_000);
      expect(db.$client.options.idleTimeoutMillis).toBe(POOL_IDLE_MS);
      await db.$client.query('select 1');
      // The connection went back to the pool and stays there (its idle timer has not fired).
      expect(db.$client.totalCount).toBe(1);
      expect(db.$client.idleCount).toBe(1);
    } finally {
      await db.$client.end();
    }
  });

  it('lets a process that never ends its pool exit once the connections are idle', async () => {
    // Without allowExitOnIdle this script would stay alive for the whole idle timeout (a minute).
    const script = `const { createDb } = await import(${JSON.stringify(CLIENT_MODULE)});
      const db = createDb({ url: ${JSON.stringify(inject('databaseUrl'))}, max: 2 });
      const { rows } = await db.$client.query('select 41 + 1 as n');
      console.log(rows[0].n);`;
    const started = Date.now();
    const { code, stdout, stderr } = await runModuleScript(script, { timeoutMs: 30_000 });
    expect(stdout.trim()).toBe('42');
    expect(code, stderr).toBe(0);
    // Well under the idle timeout (and under the 30 s after which the child is killed, with a null code).
    expect(Date.now() - started).toBeLessThan(POOL_IDLE_MS / 2);
  }, 40_000);
});
