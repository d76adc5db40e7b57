/**
 * The built processes of `npm run test:scale`, as production runs them (Procfile: `node --import
 * ./api/dist/instrument.js api/dist/main.js`, the same for the workers), each with its own environment;
 * and what the harness reads about them: how many TCP connections a process holds to a port (its
 * database pool, through PgBouncer), read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '@nh/server/testing/wait-for';

export interface Proc {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The last lines of its output, for a failure's report. */
  tail: () => string;
}

const running = new Set<Proc>();

/** Starts `node --import <preload> <entry>` from the repository root with exactly `env` (plus PATH). */
export function startProcess(root: string, name: string, entry: string, env: Record<string, string>, preload?: string): Proc {
  const args = [...(preload ? ['--import', `./${preload}`] : []), entry];
  return startProcessOf(
    name,
    spawn(process.execPath, args, { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

/** Tracks a spawned child (its output piped): its exit, its last lines; `killAll` ends it. */
export function startProcessOf(name: string, child: ChildProcess): Proc {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 60) lines.splice(0, lines.length - 60);
    if (process.env.SCALE_VERBOSE) process.stderr.write(chunk.toString().replace(/^/gm, `[${name}] `));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const proc: Proc = {
    name,
    child,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    tail: () => lines.slice(-15).join('\n'),
  };
  running.add(proc);
  void proc.exited.then(() => running.delete(proc));
  return proc;
}

/** Runs a one-off process (the release's migrate and seed) to its end; a non-zero exit throws with its output. */
export async function runToEnd(root: string, name: string, entry: string, env: Record<string, string>, preload?: string): Promise<void> {
  const proc = startProcess(root, name, entry, env, preload);
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${name} exited with ${code}:\n${proc.tail()}`);
}

/** SIGTERM (or SIGKILL), then waits for the exit; SIGKILL after `graceMs`. */
export async function stopProcess(proc: Proc, signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  try {
    return await proc.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Every process still running, killed: the harness's last step, whatever happened. */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((proc) => stopProcess(proc, 'SIGKILL', 1000)));
}



/** Waits until GET `url` answers 200 or the process exits (then its output is in the error). */
export async function waitHttpReady(proc: Proc, url: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}):\n${proc.tail()}`);
      return (await fetch(url)).status === 200;
    },
    timeoutMs,
    `${proc.name} at ${url}`,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${proc.tail()}`);
  });
}

/**
 * TCP connections `pid` holds to 127.0.0.1:`port` (established or opening): its sockets' inodes
 * (/proc/<pid>/fd) matched against the connection table (/proc/<pid>/net/tcp). 0 once it has exited.
 */
export function connectionsTo(pid: number, port: number): number {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      fs
        .readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return fs.readlinkSync(path.join(`/proc/${pid}/fd`, fd));
          } catch {
            return '';
          }
        })
        .flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.slice(1) ?? []),
    );
  } catch {
    return 0;
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let table: string;
  try {
    table = fs.readFileSync(`/proc/${pid}/net/tcp`, 'utf8');
  } catch {
    return 0; // it has just exited
  }
  let count = 0;
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // local_address rem_address st … inode (column 9); states 01 ESTABLISHED, 02 SYN_SENT.
    if (cols.length > 9 && cols[2]!.endsWith(`:${hexPort}`) && (cols[3] === '01' || cols[3] === '02') && inodes.has(cols[9]!)) count++;
  }
  return count;
}
