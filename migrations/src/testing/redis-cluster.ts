/**
 * A real Redis Cluster for tests (issue 24): `nodes` masters (3 by default, no replicas) from the
 * machine's `redis-server` on free local ports, in a temp dir, joined with `redis-cli --cluster create`.
 * The shared Redis on 6379 is never touched. Used by the cluster tests and `npm run test:scale`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait-for';

const run = promisify(execFile);

export interface RedisClusterOptions {
  /** Masters (at least 3, as `redis-cli --cluster create` wants); 3 by default. */
  nodes?: number;
  /** `requirepass` of every node (then REDIS_URL carries it, as a managed cluster's would). */
  password?: string;
}

export interface TestRedisCluster {
  /** Each node's `host:port`. */
  nodes: string[];
  /** The processes' settings for this cluster: REDIS_URL (credentials; its host is the first node) and REDIS_CLUSTER_NODES. */
  env: { REDIS_URL: string; REDIS_CLUSTER_NODES: string };
  /** Kills every node and removes the temp dir. */
  stop: () => Promise<void>;
}

/** A free port whose cluster bus port (+10000) is free too (Redis 6.2 has no `cluster-port` to set it). */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port)) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Starts the cluster and waits until every node says `cluster_state:ok`. */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<TestRedisCluster> {
  const count = Math.max(3, options.nodes ?? 3);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-redis-cluster-'));
  const auth = options.password ? ['-a', options.password, '--no-auth-warning'] : [];
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const kill = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  // A test process that dies leaves no cluster behind.
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    const exits = children
      .filter((c) => c.exitCode === null && c.signalCode === null)
      .map((c) => new Promise((resolve) => c.once('exit', resolve)));
    kill();
    await Promise.all(exits);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      const port = await freeClusterPort(new Set(ports));
      ports.push(port);
      const conf = path.join(dir, `redis-${port}.conf`);
      const settings = [
        `port ${port}`,
        'bind 127.0.0.1',
        'cluster-enabled yes',
        `cluster-config-file ${path.join(dir, `nodes-${port}.conf`)}`,
        'cluster-node-timeout 2000',
        `dir ${dir}`,
        'save ""',
        'appendonly no',
        'daemonize no',
        `logfile ${path.join(dir, `redis-${port}.log`)}`,
        ...(options.password ? [`requirepass ${options.password}`, `masterauth ${options.password}`] : []),
      ];
      fs.writeFileSync(conf, `${settings.join('\n')}\n`);
      const child = spawn('redis-server', [conf], { stdio: 'ignore' });
      children.push(child);
    }
    const cli = (port: number, ...args: string[]) => run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...auth, ...args]);
    await Promise.all(
      ports.map((port) => waitFor(async () => (await cli(port, 'ping')).stdout.trim() === 'PONG', 10_000, `Redis Cluster: redis-server on ${port}`)),
    );
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes', ...auth]);
    await Promise.all(
      ports.map((port) =>
        waitFor(
          async () => {
            const info = (await cli(port, 'cluster', 'info')).stdout;
            return /cluster_state:ok/.test(info) && new RegExp(`cluster_known_nodes:${count}\\b`).test(info);
          },
          15_000,
          `Redis Cluster: cluster_state:ok on ${port}`,
        ),
      ),
    );
    const credentials = options.password ? `:${encodeURIComponent(options.password)}@` : '';
    return { nodes, env: { REDIS_URL: `redis://${credentials}${nodes[0]}`, REDIS_CLUSTER_NODES: nodes.join(',') }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
