/**
 * The catalogue's cached answers are sent ahead of Express (lib/ahead-of-express.ts, issue 26): a
 * client, a proxy and an operator must not be able to tell. Each request below goes to the server as
 * it runs (the app's listener) and to the same app without the early path (Express alone), with the same
 * request id, and the two must agree on the status, every header but Date, the bytes, the access line
 * and the metric it is counted under; and the early path must really have taken the cached ones
 * (Express's `handle` is not called for them).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { httpRequestDuration } from '@nh/server/observability/metrics';
import * as demo from '@nh/server/seed/data';
import { aheadOfExpress } from '../src/lib/ahead-of-express';
import { toJsonEntry } from '../src/lib/json-cache';
import { valueSigner } from '../src/lib/signed-value';
import { startTestApi, type TestApi } from './support/harness';
import { captureLog } from './support/log-capture';
import { rawRequest, type RawAnswer } from './support/raw-request';

const { lines, log } = captureLog();

let api: TestApi;
let expressOnly: Server;
let expressUrl: string;
let expressCalls = 0;

beforeAll(async () => {
  api = await startTestApi({}, { log });
  expressOnly = createServer(api.app);
  await new Promise<void>((resolve) => expressOnly.listen(0, '127.0.0.1', resolve));
  expressUrl = `http://127.0.0.1:${(expressOnly.address() as AddressInfo).port}`;
  countExpress(api.app, () => (expressCalls += 1));
});

/** Express's app function hands every request to `app.handle` (not in its types): calls `counted` for each. */
function countExpress(app: TestApi['app'], counted: () => void): void {
  const target = app as unknown as { handle: (...args: unknown[]) => unknown };
  const handle = target.handle.bind(target);
  target.handle = (...args: unknown[]) => {
    counted();
    return handle(...args);
  };
}
afterAll(async () => {
  expressOnly.closeAllConnections();
  await new Promise((resolve) => expressOnly.close(resolve));
  await api.close();
});

const send = (base: string, path: string, method: string, headers: Record<string, string>) =>
  rawRequest(`${base}${path}`, { method, headers });

/** The count of every series of the request histogram. */
async function seriesCounts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const value of (await httpRequestDuration.get()).values) {
    if (value.metricName !== 'nh_http_request_duration_seconds_count') continue;
    const { route, method, status } = value.labels;
    counts.set(`${String(method)} ${String(route)} ${String(status)}`, value.value);
  }
  return counts;
}

/** The series whose count `after` moved past `before`, with how much. */
const moved = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].filter(([key, n]) => n !== (before.get(key) ?? 0)).map(([key, n]) => `${key} +${n - (before.get(key) ?? 0)}`);

/** The access line of request `id`, without what differs from one answer to the next (time, duration, process). */
function accessLineOf(id: string): Record<string, unknown> {
  const found = lines.filter((entry) => entry.reqId === id && entry.msg === 'request completed');
  expect(found, `one access line for ${id}`).toHaveLength(1);
  const { time: _time, ms: _ms, pid: _pid, hostname: _hostname, ...rest } = found[0]!;
  return rest;
}

const product = demo.products[0]!.slug;
const category = demo.categories[0]!.slug;
const post = demo.blogPosts[0]!.slug;
const CATALOGUE = [
  '/api/products',
  `/api/products/${product}`,
  '/api/categories',
  `/api/categories/${category}`,
  '/api/blog',
  `/api/blog/${post}`,
  '/api/impact',
  '/api/ingredients',
];

let sequence = 0;
/** One request to both servers; what each answered, logged and counted. */
async function both(path: string, { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {}) {
  const answers: RawAnswer[] = [];
  const logged: Array<Record<string, unknown>> = [];
  const counted: string[][] = [];
  const reachedExpress: number[] = [];
  for (const base of [api.url, expressUrl]) {
    const id = `same-id-${(sequence += 1)}`;
    const before = await seriesCounts();
    const calls = expressCalls;
    const answer = await send(base, path, method, { ...headers, 'x-request-id': id });
    // The line and the metric come with the answer's 'finish'; the client may see the bytes a moment earlier.
    await expect.poll(() => lines.some((entry) => entry.reqId === id)).toBe(true);
    reachedExpress.push(expressCalls - calls);
    counted.push(moved(before, await seriesCounts()));
    logged.push({ ...accessLineOf(id), reqId: 'same' });
    const { date: _date, 'x-request-id': requestId, ...rest } = answer.headers;
    expect(requestId).toBe(id);
    answers.push({ ...answer, headers: rest });
  }
  return { early: answers[0]!, express: answers[1]!, logged, counted, earlyReachedExpress: reachedExpress[0]! };
}

describe('cached catalogue answers sent ahead of Express', () => {
  beforeAll(async () => {
    // Fill the cache (a miss is answered by Express, which keeps the answer).
    for (const path of CATALOGUE) expect((await send(api.url, path, 'GET', {})).status).toBe(200);
  });

  const cases: Array<{ name: string; path: string; method?: string; headers?: Record<string, string> }> = [
    ...CATALOGUE.map((path) => ({ name: `GET ${path}`, path })),
    { name: 'the list, gzip accepted', path: '/api/products', headers: { 'accept-encoding': 'gzip, deflate, br' } },
    { name: 'a product, gzip refused', path: `/api/products/${product}`, headers: { 'accept-encoding': 'gzip;q=0, identity' } },
    { name: 'HEAD of the list', path: '/api/products', method: 'HEAD', headers: { 'accept-encoding': 'gzip' } },
    { name: 'a query string', path: '/api/products?utm_source=mail&token=secret-token-value', headers: {} },
    { name: 'a proxy in front', path: '/api/blog', headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' } },
  ];

  for (const { name, path, method, headers } of cases) {
    it(`${name}: the same answer, access line and metric, without Express`, async () => {
      const { early, express, logged, counted, earlyReachedExpress } = await both(path, { method, headers });
      expect(earlyReachedExpress).toBe(0);
      expect(early.status).toBe(express.status);
      expect(early.headers).toEqual(express.headers);
      expect(early.body.equals(express.body)).toBe(true);
      expect(logged[0]).toEqual(logged[1]);
      expect(counted[0]).toEqual(counted[1]);
      expect(counted[0]).toHaveLength(1);
    });
  }

  it('a 304 for a browser that has the bytes, gzip or not', async () => {
    for (const encoding of ['gzip', 'identity']) {
      const first = await send(api.url, '/api/products', 'GET', { 'accept-encoding': encoding });
      const etag = String(first.headers.etag);
      const { early, express, logged, counted, earlyReachedExpress } = await both('/api/products', {
        headers: { 'accept-encoding': encoding, 'if-none-match': etag },
      });
      expect(earlyReachedExpress).toBe(0);
      expect([early.status, express.status]).toEqual([304, 304]);
      expect(early.headers).toEqual(express.headers);
      expect(early.body.length).toBe(0);
      expect(logged[0]).toEqual(logged[1]);
      expect(counted[0]).toEqual(counted[1]);
    }
  });

  // Everything else is Express's: other spellings (Express matches without regard to case or a
  // trailing slash), a slug that cannot exist, an unknown product (never cached), other methods.
  const toExpress: Array<{ name: string; path: string; method?: string; status: number }> = [
    { name: 'another case', path: '/API/Products', status: 200 },
    { name: 'a trailing slash', path: '/api/products/', status: 200 },
    { name: 'an encoded slug', path: `/api/products/${encodeURIComponent(product).replace('s', '%73')}`, status: 200 },
    { name: 'a slug that cannot exist', path: '/api/products/Not_A_Slug', status: 404 },
    { name: 'an unknown product', path: '/api/products/no-such-product-anywhere', status: 404 },
    { name: 'a POST (the back office creating a product)', path: '/api/products', method: 'POST', status: 401 },
    { name: 'a deeper path (reviews want a product id)', path: `/api/products/${product}/reviews`, status: 400 },
  ];
  for (const { name, path, method, status } of toExpress) {
    it(`${name} goes to Express, answered as before`, async () => {
      const { early, express, logged, counted, earlyReachedExpress } = await both(path, { method });
      expect(earlyReachedExpress).toBe(1);
      expect([early.status, express.status]).toEqual([status, status]);
      expect(logged[0]).toEqual(logged[1]);
      expect(counted[0]).toEqual(counted[1]);
    });
  }
});

describe('aheadOfExpress', () => {
  it('hands the request to the app when the lookup or the every-request layer fails, and answers from the cache when neither does', async () => {
    const app = express();
    app.get('/x', (_req, res) => res.type('text/plain').send('from Express'));
    let fail = true;
    // An entry whose bytes cannot be read: the send throws after setting some headers, before the head is out.
    const broken = Object.defineProperty(toJsonEntry({}, 60_000), 'body', {
      get() {
        throw new Error('a send that failed');
      },
    });
    const listener = aheadOfExpress(
      app,
      (_req, _res, next) => next(fail ? new Error('a layer that failed') : undefined),
      (req) => {
        if (req.url === '/throw') throw new Error('a lookup that failed');
        if (req.url === '/broken') return { route: {}, entry: broken };
        return req.url === '/x' ? { route: {}, entry: toJsonEntry({ cached: true }, 60_000) } : undefined;
      },
      createLogger('api-test', 'silent'),
    );
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await send(base, '/x', 'GET', {})).body.toString()).toBe('from Express');
      fail = false;
      expect(JSON.parse((await send(base, '/x', 'GET', {})).body.toString())).toEqual({ cached: true });
      expect((await send(base, '/y', 'GET', {})).status).toBe(404);
      // A lookup that throws (it would end the process outside Express) leaves the request to Express.
      expect((await send(base, '/throw', 'GET', {})).status).toBe(404);
      // So does a send that throws before the head is out, and Express's answer carries none of its headers.
      const afterBrokenSend = await send(base, '/broken', 'GET', {});
      expect(afterBrokenSend.status).toBe(404);
      expect(afterBrokenSend.headers.etag).toBeUndefined();
      expect(afterBrokenSend.headers['cache-control']).toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('what a cached answer skips', () => {
  it("nothing but the every-request layer comes before the catalogue's routes (a layer there would be skipped for a cached answer)", () => {
    const stack = (api.app.router as unknown as { stack: Array<{ route?: { path?: unknown } }> }).stack;
    const first = stack.findIndex((layer) => layer.route?.path === '/api/products');
    // This API has no replica, so no read-your-writes mark either (it does nothing on a GET when there is one).
    expect(first).toBe(1);
  });
});

describe('a person who has just changed something', () => {
  let replicated: TestApi;
  let reachedExpress = 0;
  beforeAll(async () => {
    // A "replica" (the same database) and a read-your-writes window, so the mark counts.
    replicated = await startTestApi({ DATABASE_READ_URL: inject('databaseUrl'), READ_YOUR_WRITES_MS: '5000' });
    countExpress(replicated.app, () => (reachedExpress += 1));
  });
  afterAll(() => replicated.close());

  it('reads past the cache through Express while their mark lives, and gets the cached answer once it has ended', async () => {
    const mark = (until: number) =>
      `nh.rw=${valueSigner(replicated.ctx.config.SESSION_SECRET, 'nh read your writes v1', 22).sign(String(until))}`;
    expect((await send(replicated.url, '/api/products', 'GET', {})).status).toBe(200); // fills the cache
    for (const [cookie, expected] of [
      [mark(Date.now() + 60_000), 1],
      [mark(Date.now() - 1_000), 0],
      ['', 0],
    ] as const) {
      const before = reachedExpress;
      const answer = await send(replicated.url, '/api/products', 'GET', cookie ? { cookie } : {});
      expect(answer.status).toBe(200);
      expect(reachedExpress - before, cookie || 'no mark').toBe(expected);
    }
  });
});
