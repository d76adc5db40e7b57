/**
 * A local PgBouncer (Debian's package, 1.18: it cannot keep named prepared statements) in transaction
 * mode in front of the test PostgreSQL, for the tests of a shop behind a pooler (issue 24). PgBouncer
 * will not run as root, so under root it runs as the `postgres` user.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, isListening } from './free-port';

export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `databaseUrl` with its host and port replaced by the pooler's. */
  urlFor: (databaseUrl: string) => string;
  stop: () => Promise<void>;
}


/** Starts PgBouncer in front of `databaseUrl`'s server; `poolSize` server connections per database and user. */
export async function startPgBouncer(databaseUrl: string, poolSize = 2): Promise<PgBouncer> {
  if (!fs.existsSync(PGBOUNCER_BINARY)) throw new Error(`${PGBOUNCER_BINARY} is missing: apt-get install pgbouncer (.ci/run installs it)`);
  const server = new URL(databaseUrl);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-pgbouncer-'));
  fs.chmodSync(dir, 0o777);
  const user = decodeURIComponent(server.username || 'postgres');
  fs.writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'users.txt')}
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
logfile = ${path.join(dir, 'pgbouncer.log')}
pidfile = ${path.join(dir, 'pgbouncer.pid')}
`,
  );
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o666);
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : {};
  const child = spawn(PGBOUNCER_BINARY, [path.join(dir, 'pgbouncer.ini')], { ...ids, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Listening once a TCP connection is accepted.
  for (const end = Date.now() + 10_000; ; ) {
    if (await isListening(port)) break;
    if (Date.now() > end || child.exitCode !== null) throw new Error(`PgBouncer did not start: ${fs.readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8').slice(-500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    urlFor: (url) => {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
