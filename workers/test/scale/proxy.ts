/**
 * Debian's HAProxy in front of the API processes, as a load balancer runs: round robin, a readiness
 * probe (`GET /readyz` every 500 ms, out after 2 failures), and no retries (`retries 0`), as a cloud load
 * balancer answers 502 for a refused connection: an API that closed its listener before the probe saw
 * its 503 shows as failed requests. `X-Forwarded-For` is added (the APIs run with TRUST_PROXY).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProcessOf, type Proc } from './processes';

export const HAPROXY_BINARY = '/usr/sbin/haproxy';

export interface Proxy {
  url: string;
  stop: () => Promise<void>;
}

export function haproxyConfig(port: number, servers: Array<{ name: string; port: number }>): string {
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  option forwardfor
  retries 0

frontend shop
  bind 127.0.0.1:${port}
  default_backend api

backend api
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 500 fall 2 rise 2
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n')}
`;
}

/** Starts HAProxy on `port` in front of `servers`; waits until it answers. */
export async function startProxy(port: number, servers: Array<{ name: string; port: number }>): Promise<Proxy> {
  if (!fs.existsSync(HAPROXY_BINARY)) throw new Error(`${HAPROXY_BINARY} is missing: apt-get install haproxy (.ci/run installs it)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, haproxyConfig(port, servers));
  const proc: Proc = startProcessOf('haproxy', spawn(HAPROXY_BINARY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (const end = Date.now() + 10_000; ;) {
      if (proc.child.exitCode !== null) throw new Error(`haproxy exited:\n${proc.tail()}`);
      const up = await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) break;
      if (Date.now() > end) throw new Error(`haproxy did not answer:\n${proc.tail()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    proc.child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    stop: async () => {
      proc.child.kill('SIGTERM');
      await proc.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
