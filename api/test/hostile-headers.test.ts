/**
 * Hostile cookies and headers never make a 5xx (docs/decisions/input-validation.md). Every GET route of
 * the app (read from its router stack, so a route added later is probed too) and the pages are asked
 * with each of the shop's own cookies holding what a browser never sends but a person can: bytes above
 * 0x7f (Node reads a header as latin1, so a "43-character" tag may be 44 bytes), a cut percent escape,
 * a value of only dots, one far too long; and the headers the request path reads (request id,
 * If-None-Match, Accept-Encoding, Accept, Origin, X-Forwarded-For) holding the same. A replica is
 * configured (the same database through a second pool) so the read-your-writes mark is read as well.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApi, type TestApi } from './support/harness';
import { fillPath, listRoutes } from './support/routes';

/** The cookies the API reads. */
const COOKIES = ['nh.sid', 'nh.staff', 'nh.known', 'nh.go', 'nh.rw'];
const ANY_UUID = '00000000-0000-4000-8000-000000000000';
const HOSTILE = [
  '\u00e9'.repeat(43),
  `${'a'.repeat(40)}.${'\u00e9'.repeat(43)}`,
  `${'9'.repeat(13)}.${'\u00ff'.repeat(22)}`,
  `${ANY_UUID}:9999999999999.${'\u00e9'.repeat(43)}`,
  `s:${'\u00e9'.repeat(32)}.${'\u00e9'.repeat(43)}`,
  '%E0%A4%A',
  '.'.repeat(60),
  'a'.repeat(3000),
];
const PAGES = ['/', '/shop', '/product/no-such-product', '/journal', '/account', '/checkout'];

/** An address with no account: sign-in probes are refused. */
const NOBODY = `hostile.headers.${randomBytes(4).toString('hex')}@example.com`;

let api: TestApi;

beforeAll(async () => {
  // A key prefix of its own: the sign-in probes count against rate limits kept in Redis.
  api = await startTestApi({ QUEUE_PREFIX: `${inject('queuePrefix')}-hostile-headers`, DATABASE_READ_URL: inject('databaseUrl'), READ_YOUR_WRITES_MS: '5000' });
});
afterAll(async () => {
  await api?.close();
});

/** A GET (or, with a body, a JSON POST) with raw headers: the status, or the error fetch gave. */
async function statusOf(path: string, headers: Record<string, string>, body?: object): Promise<number | string> {
  try {
    const res = await fetch(api.url + path, {
      redirect: 'manual',
      ...(body ? { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } } : { headers }),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return `fetch failed: ${(error as Error).message}`;
  }
}

describe('hostile cookies and headers', () => {
  it('never answers a GET route or a page with a 5xx, whatever the shop cookies hold', async () => {
    // Each parameter once as a number and once as a UUID (an order's id: the guest's order reads nh.go).
    const routes = listRoutes(api.app).filter((r) => r.method === 'GET' && r.path.startsWith('/api/'));
    const paths = [...new Set([...routes.map((r) => fillPath(r.path, () => '1')), ...routes.map((r) => fillPath(r.path, () => ANY_UUID))]), ...PAGES];
    const failures: string[] = [];
    for (const path of paths) {
      for (const value of HOSTILE) {
        const status = await statusOf(path, { cookie: COOKIES.map((name) => `${name}=${value}`).join('; ') });
        if (typeof status !== 'number' || status >= 500) failures.push(`${path} with cookies ${JSON.stringify(value.slice(0, 40))}: ${status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(paths.length).toBeGreaterThan(40);
  });

  it('never answers sign-in with a 5xx, whatever the shop cookies hold (it reads the known-browser cookie)', async () => {
    for (const value of HOSTILE) {
      const cookie = COOKIES.map((name) => `${name}=${value}`).join('; ');
      // Refused as a wrong password, or (after a few) as too many attempts: never a 5xx.
      expect([401, 429]).toContain(await statusOf('/api/login', { cookie }, { email: NOBODY, password: 'not the password' }));
    }
  });

  it('never answers the catalogue, a page, an account read or sign-in with a 5xx, whatever the request headers hold', async () => {
    const failures: string[] = [];
    const asks: Array<[string, object?]> = [['/api/products'], ['/api/products/no-such-product'], ['/'], ['/shop'], ['/api/account/orders'], ['/api/login', { email: NOBODY, password: 'x' }]];
    for (const header of ['x-request-id', 'if-none-match', 'accept-encoding', 'accept', 'origin', 'x-forwarded-for']) {
      for (const value of HOSTILE) {
        for (const [path, body] of asks) {
          const status = await statusOf(path, { [header]: value }, body);
          if (typeof status !== 'number' || status >= 500) failures.push(`${path} with ${header} ${JSON.stringify(value.slice(0, 40))}: ${status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
