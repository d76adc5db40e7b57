/**
 * A private redis-server child process on a free port, for drills that stop Redis. The shared Redis on
 * 6379 is used by every engineer's tests on this machine and must never be stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, isListening } from '@nh/server/testing/free-port';
import { waitFor } from '@nh/server/testing/wait-for';

const waitForPort = (port: number) => waitFor(() => isListening(port), 10_000, `redis-server on ${port} to start`);

export class PrivateRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--maxmemory-policy', 'noeviction'], {
      stdio: 'ignore',
    });
    await waitForPort(this.port);
  }

  /** Kills the server (SIGKILL: like a crash); its data is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const redis = new PrivateRedis(await freePort());
  await redis.start();
  return redis;
}
