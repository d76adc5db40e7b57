/**
 * The connection pool every process makes with createDb (docs/decisions/checkout.md, "Warm connections
 * across bursts"): a connection a burst opened stays open for a minute of idleness, so the next burst
 * finds it warm; and idle connections alone do not keep a process alive.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createDb, POOL_IDLE_MS } from '@nh/server/db/client';

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
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('error', reject);
      child.once('exit', (exitCode) => {
        clearTimeout(killer);
        resolve({ code: exitCode, stdout: out });
      });
    });
    expect(stdout.trim()).toBe('42');
    expect(code).toBe(0);
    // Well under the idle timeout (and under the 30 s kill above, which would give a null code).
    expect(Date.now() - started).toBeLessThan(POOL_IDLE_MS / 2);
  }, 40_000);
});
