/**
 * `npm run bench:catalog`: how close the catalogue endpoints come to the fastest possible Express
 * answer. In one run it starts
 *   - our API (the real app: helmet, logging, compression, sessions, the catalogue cache) on the dev
 *     database (migrated and seeded first), and
 *   - a bare Express server that answers the same paths with the same bytes and every header ours
 *     sends (JSON type, ETag, Cache-Control, Vary, the security headers, an x-request-id of the same
 *     length; not Date, Connection, Keep-Alive and Content-Length, which Node writes for both) from memory,
 * then loads each with autocannon (50 connections, BENCH_SECONDS each, default 10) and prints
 * requests/s, p99 latency, the ratio ours/bare and each server's CPU time per request (this process's
 * CPU while only that server is loaded: the load generator runs in a child process). Goal: ratio >= 0.9.
 *
 * Our API logs one line per request (the access line, lib/request-logger.ts) in production: it does here
 * too, at BENCH_LOG_LEVEL (default info), through the destination production uses (pino's SonicBoom,
 * asynchronous writes of what has gathered meanwhile) pointed at /dev/null instead of stdout (where
 * the lines go is the operator's cost, not the app's). BENCH_LOG_LEVEL=silent measures without it.
 *
 * autocannon runs in a child process so the load generator does not share the servers' event loop;
 * the servers are measured the same way, one at a time. A third server (the catalogue router alone)
 * separates the handler's cost from the app-wide middleware's.
 */
import { execFile } from 'node:child_process';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import express from 'express';
import { createDb } from '@nh/server/db/client';
import { createLogger, logFile } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { seedDemoCatalogue } from '@nh/server/seed/seed';
import { applyMigrations, ensureDatabase } from '@nh/server/runtime/database';
import { createApp } from '../src/app';
import { loadApiConfig } from '../src/lib/config';
import { catalogRoutes } from '../src/modules/catalog';
import { createReads } from '../src/lib/read-your-writes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const GOAL = 0.9;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const PATHS = ['/api/products', '/api/products/surfy-probiotic-all-purpose-cleaner'];
/** Headers Node writes itself for both servers: everything else ours sends, the bare server sends too. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

const run = promisify(execFile);
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Round {
  requests: number;
  seconds: number;
  p99: number;
  cpuMicros: number;
}

/** One autocannon run in a child process; the CPU this process (the servers) spent meanwhile. */
async function round(url: string, seconds: number): Promise<Round> {
  const cpu0 = process.cpuUsage();
  const { stdout } = await run(process.execPath, [autocannonCli, '-c', String(CONNECTIONS), '-d', String(seconds), '-j', url], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const cpu = process.cpuUsage(cpu0);
  const out = JSON.parse(stdout) as { requests: { total: number }; latency: { p99: number }; errors: number; non2xx: number; duration: number };
  if (out.errors || out.non2xx) throw new Error(`${url}: ${out.errors} errors, ${out.non2xx} non-2xx answers`);
  return { requests: out.requests.total, seconds: out.duration, p99: out.latency.p99, cpuMicros: cpu.user + cpu.system };
}

interface Result {
  rps: number;
  p99: number;
  cpuPerRequest: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const summarise = (rounds: Round[]): Result => {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  return {
    rps: requests / rounds.reduce((n, r) => n + r.seconds, 0),
    p99: median(rounds.map((r) => r.p99)),
    cpuPerRequest: rounds.reduce((n, r) => n + r.cpuMicros, 0) / requests,
  };
};

/**
 * The machine is shared, so load from elsewhere drifts during a run: the servers are measured in
 * alternating one-second rounds (BENCH_SECONDS rounds each) so a drift hits them alike.
 */
async function compare(urls: string[]): Promise<{ results: Result[]; spread: string }> {
  const rounds: Round[][] = urls.map(() => []);
  for (let i = 0; i < SECONDS; i += 1) for (const [k, url] of urls.entries()) rounds[k]!.push(await round(url, 1));
  // How much the machine moved the figure: the ratio of each pair of neighbouring rounds, quartiles.
  const rate = (r: Round) => r.requests / r.seconds;
  const pairs = rounds[0]!.map((r, i) => rate(r) / rate(rounds[1]![i]!)).sort((a, b) => a - b);
  const at = (q: number) => pairs[Math.min(pairs.length - 1, Math.floor(q * pairs.length))]!.toFixed(2);
  return { results: rounds.map(summarise), spread: `${at(0.25)}–${at(0.75)}` };
}

function listen(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

async function main() {
  const config = loadApiConfig({ ...process.env, LOG_LEVEL: 'silent', PORT: '0' });
  console.log(`database: ${config.DATABASE_URL.replace(/\/\/[^@]*@/, '//')}`);
  await ensureDatabase(config.DATABASE_URL);
  await applyMigrations(config.DATABASE_URL);
  const db = createDb({ url: config.DATABASE_URL });
  await seedDemoCatalogue(db);
  const redis = createRedis(config.REDIS_URL);
  // The access lines are made, serialised and written as in production (createLogger's default is
  // SonicBoom on stdout, asynchronous), into /dev/null. Not a Writable stream: that would turn each
  // line into a Buffer, a cost production does not have.
  const ctx = { config, db, readDb: db, redis, log: createLogger('bench', LOG_LEVEL, logFile('/dev/null')) };
  const ours = await listen(createApp(ctx).listener);

  // The bare server answers exactly what ours answered: same bytes, same content headers.
  const bareApp = express();
  bareApp.disable('x-powered-by');
  for (const path of PATHS) {
    // Identity bytes: autocannon sends no Accept-Encoding, so that is what both servers answer.
    const res = await fetch(ours.url + path, { headers: { 'accept-encoding': 'identity' } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    // Every header of ours but the connection's; the request id is per request (same length here).
    const headers = Object.fromEntries([...res.headers].filter(([h]) => !CONNECTION_HEADERS.has(h)));
    if (!headers.etag || !headers['x-content-type-options']) throw new Error(`${path}: expected an ETag and the security headers`);
    bareApp.get(path, (_req, reply) => {
      reply.set(headers);
      reply.send(body);
    });
    console.log(`${path}: ${body.length} bytes, ${Object.keys(headers).length} headers copied, ETag ${headers.etag}`);
  }
  const bare = await listen(bareApp);

  // The catalogue router alone (no helmet, logging, compression, sessions): shows how much of any gap
  // is the handler and how much the app-wide middleware in app.ts.
  const routerApp = express();
  routerApp.disable('x-powered-by');
  routerApp.use('/api', catalogRoutes(ctx, { reads: createReads({ primary: db, replica: db, log: ctx.log }, config) }).router);
  const routerOnly = await listen(routerApp);

  console.log(`\nautocannon (child process): ${CONNECTIONS} connections, ${SECONDS} s per server and path (BENCH_SECONDS), alternating 1 s rounds; our access log at ${LOG_LEVEL} (BENCH_LOG_LEVEL)\n`);
  const rows: string[][] = [];
  let worst = Infinity;
  for (const path of PATHS) {
    const urls = [ours.url + path, bare.url + path, routerOnly.url + path];
    for (const url of urls) await round(url, 1); // warm-up: JIT, cache, connections
    const { results, spread } = await compare(urls);
    const [a, b, r] = results as [Result, Result, Result];
    const ratio = a.rps / b.rps;
    worst = Math.min(worst, ratio);
    rows.push([
      `GET ${path}`,
      a.rps.toFixed(0),
      `${a.p99} ms`,
      b.rps.toFixed(0),
      `${b.p99} ms`,
      ratio.toFixed(2),
      spread,
      `${a.cpuPerRequest.toFixed(0)} / ${b.cpuPerRequest.toFixed(0)}`,
      (b.cpuPerRequest / a.cpuPerRequest).toFixed(2),
      (r.rps / b.rps).toFixed(2),
    ]);
  }

  const header = ['endpoint', 'ours req/s', 'ours p99', 'bare req/s', 'bare p99', 'ours/bare', 'per round (q1–q3)', 'CPU us/req ours / bare', 'CPU bare/ours', 'router alone/bare'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`\n${worst >= GOAL ? 'PASS' : 'BELOW GOAL'}: lowest ratio ours/bare ${worst.toFixed(2)} (goal >= ${GOAL})`);

  for (const { server } of [ours, bare, routerOnly]) server.closeAllConnections();
  await Promise.all([ours, bare, routerOnly].map(({ server }) => new Promise((r) => server.close(r))));
  await Promise.allSettled([db.$client.end(), redis.quit()]);
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
