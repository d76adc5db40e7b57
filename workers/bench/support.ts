/** Shared bits of the worker benchmarks: a dedicated bench database and a worker child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { QueryResultRow } from 'pg';
import { DEFAULT_DATABASE_URL } from '@nh/server/runtime/env';
import { applyMigrations, ensureDatabase } from '@nh/server/runtime/database';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The bench database (BENCH_DATABASE_URL, else `<DATABASE_URL server>/<name>`), created and migrated. */
export async function benchDatabase(name: string): Promise<string> {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  if (!process.env.BENCH_DATABASE_URL) url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  await applyMigrations(url.toString());
  return url.toString();
}

/** How the bench runs a worker: the esbuild bundle as the Procfile does (default), or the sources under tsx. */
export type WorkerRuntime = 'bundle' | 'tsx';

export function workerRuntime(): WorkerRuntime {
  const value = process.env.BENCH_WORKER_RUNTIME ?? 'bundle';
  if (value !== 'bundle' && value !== 'tsx') throw new Error(`BENCH_WORKER_RUNTIME must be bundle or tsx, not ${value}`);
  return value;
}

const BUNDLE = 'workers/dist/bench-main.js';

/**
 * Bundles workers/src/main.ts the way scripts/build-server.mjs does (workspace sources compiled in, npm
 * packages external), to its own file so a bench never overwrites the deployable `workers/dist/main.js`.
 */
export async function buildWorkerBundle(): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(ROOT, 'workers/src/main.ts')],
    outfile: path.join(ROOT, BUNDLE),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    plugins: [
      {
        name: 'bundle-workspaces',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@nh/') ? undefined : { path: args.path, external: true }));
          // As scripts/build-server.mjs: the test files a glob import matches are bundled empty.
          b.onLoad({ filter: /\.test\.tsx?$/ }, () => ({ contents: '', loader: 'ts' }));
        },
      },
    ],
  });
  return BUNDLE;
}

/** A worker process with `env` (`node <bundle>`, or `node --import tsx workers/src/main.ts`); resolves once it logged "workers started". */
export async function spawnWorker(env: Record<string, string>, runtime: WorkerRuntime = 'tsx'): Promise<ChildProcess> {
  // BENCH_WORKER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the worker.
  const extra = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const entry = runtime === 'bundle' ? [BUNDLE] : ['--import', 'tsx', 'workers/src/main.ts'];
  const child = spawn(process.execPath, [...extra, ...entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes('workers started')) {
        resolve();
        buffer = '';
      }
      if (buffer.length > 100_000) buffer = buffer.slice(-1000);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  child.stdout.resume();
  return child;
}

export async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU time (ms) a child process has used so far, user and system, from /proc; null where there is none. */
export function processCpuMs(pid: number | undefined): { user: number; system: number } | null {
  try {
    // Fields after the parenthesised command name: state is field 3, utime 14 and stime 15 (clock ticks of 10 ms).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return null;
  }
}

/**
 * CPU spent per part of the pipeline between `start()` and `stop()` (ms): the worker processes, this
 * bench process (the NetSuite stub and the polling), the Postgres backends of the bench database (local
 * server only) and the Redis server (its own INFO figures; it also counts anyone else's commands).
 */
export class CpuMeter {
  private begin = new Map<string, number>();

  constructor(
    private readonly workers: ChildProcess[],
    private readonly pool: { query: <R extends QueryResultRow>(text: string) => Promise<{ rows: R[] }> },
    private readonly redis: { info: (section: string) => Promise<string> },
  ) {}

  private async read(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const add = (key: string, ms: number) => out.set(key, (out.get(key) ?? 0) + ms);
    for (const w of this.workers) {
      const cpu = processCpuMs(w.pid);
      if (cpu) {
        add('worker user', cpu.user);
        add('worker system', cpu.system);
      }
    }
    const own = process.cpuUsage();
    add('bench', (own.user + own.system) / 1000);
    const { rows } = await this.pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
    for (const { pid } of rows) {
      const cpu = processCpuMs(pid);
      // Per backend: one that appears during the run counts from zero.
      if (cpu) out.set(`pg ${pid}`, cpu.user + cpu.system);
    }
    const info = await this.redis.info('cpu');
    const seconds = [...info.matchAll(/^used_cpu_(?:sys|user):([\d.]+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    add('redis', seconds * 1000);
    return out;
  }

  async start(): Promise<void> {
    this.begin = await this.read();
  }

  /** ms per part: worker user/system, bench, postgres (null when no backend could be read), redis. */
  async stop(): Promise<{ workerUser: number; workerSystem: number; bench: number; postgres: number | null; redis: number }> {
    const end = await this.read();
    const delta = (key: string) => (end.get(key) ?? 0) - (this.begin.get(key) ?? 0);
    const backends = [...end.keys()].filter((k) => k.startsWith('pg '));
    return {
      workerUser: delta('worker user'),
      workerSystem: delta('worker system'),
      bench: delta('bench'),
      postgres: backends.length ? backends.reduce((sum, k) => sum + delta(k), 0) : null,
      redis: delta('redis'),
    };
  }
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
