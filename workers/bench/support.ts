/** Shared bits of the worker benchmarks: a dedicated bench database and a worker child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_DATABASE_URL } from '@nh/shared/server';
import { applyMigrations, ensureDatabase } from '../../migrations/src/database';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The bench database (BENCH_DATABASE_URL, else `<DATABASE_URL server>/<name>`), created and migrated. */
export async function benchDatabase(name: string): Promise<string> {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  if (!process.env.BENCH_DATABASE_URL) url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  await applyMigrations(url.toString());
  return url.toString();
}

/** `node --import tsx workers/src/main.ts` with `env`; resolves once it logged "workers started". */
export async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  // BENCH_WORKER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the worker.
  const extra = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'workers/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes('workers started')) {
        resolve();
        buffer = '';
      }
      if (buffer.length > 100_000) buffer = buffer.slice(-1000);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  child.stdout!.resume();
  return child;
}

export async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
