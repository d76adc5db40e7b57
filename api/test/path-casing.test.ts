/**
 * Express matches paths without regard to case, so `/aPi/AdMiN/...` reaches the same routes as
 * `/api/admin/...`; whatever reads the request's own spelling of its path must not tell them apart
 * (issue 19). The HTTP histogram's route label: before the fix each spelling (and each unknown path
 * under a mount) was a new series, made by anyone without signing in; the labels are now a fixed set
 * read from the app's routes. The back office's no-store rule: it compared the mount path as spelt.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeLabels, UNMATCHED } from '../src/lib/http-metrics';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const TOKEN = 'metrics-token-for-label-tests-0123';

let api: TestApi;
let manager: StaffClient;

beforeAll(async () => {
  api = await startTestApi({ METRICS_TOKEN: TOKEN });
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

/** The label sets of every `nh_http_request_duration_seconds_count` series in a scrape. */
async function httpSeries(): Promise<Array<{ route: string; method: string; status: string }>> {
  const res = await api.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const series = [];
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('nh_http_request_duration_seconds_count{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!.replace(/\\(.)/g, '$1')]));
    series.push({ route: labels.route!, method: labels.method!, status: labels.status! });
  }
  return series;
}

/** The path with each letter's case chosen at random. */
const anyCase = (path: string) => [...path].map((c) => (Math.random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
const randomSegment = () => randomBytes(6).toString('hex');

/**
 * Requests a stranger can send (no session), and one signed-in staff call: a route that answers, a
 * route that throws, a guard's refusal, an unknown API path, a missing static file and upload, the queue
 * dashboard (signed out: a redirect; signed in: its own router, built at request time), a storefront page.
 */
const PROBES: Array<{ path: string; signedIn?: boolean }> = [
  { path: '/api/products' },
  { path: '/api/products/no-such-product' },
  { path: '/api/admin/orders' },
  { path: '/api/admin/audit.csv' },
  { path: '/api/admin/me', signedIn: true },
  { path: '/api/no-such-endpoint' },
  { path: '/api/public/no-such-picture.png' },
  { path: '/uploads/products/no-such-picture.webp' },
  { path: '/admin/queues' },
  { path: '/admin/queues/api/queues', signedIn: true },
  { path: '/no-such-page' },
];

const send = (path: string, signedIn = false) =>
  signedIn ? manager.request(path) : api.request(path, { headers: { accept: 'application/json' } });

describe('the HTTP metrics route label', () => {
  it('keeps the number of series fixed: 1,000 requests in random casings and to random unknown paths add none', async () => {
    const labels = routeLabels(api.app);
    const known = new Set([...labels.routes.values(), ...labels.mounts.map((m) => `${m.path}/*`), UNMATCHED]);
    expect(known).toContain('/api/products/:slug');
    expect(known).toContain('/api/admin/*');
    expect(known).toContain('/admin/queues/*');

    // Each kind of answer once, as the shop's own pages spell the paths (and a scrape: it is a series too).
    await httpSeries();
    for (const probe of PROBES) await send(probe.path, probe.signedIn);
    for (const path of ['/api/', '/', '/api/admin/', '/uploads/', '/admin/queues/']) await send(`${path}${randomSegment()}`);
    const before = await httpSeries();
    for (const { route } of before) expect(known, route).toContain(route);

    // 1,000 more: the same paths in random casings, and random paths nobody registered.
    const paths: Array<{ path: string; signedIn?: boolean }> = [];
    for (let i = 0; i < 1000; i++) {
      const probe = PROBES[i % PROBES.length]!;
      if (i % 4 === 3)
        paths.push({
          path: anyCase(`${['/api/', '/', '/api/admin/', '/uploads/', '/admin/queues/'][i % 5]}${randomSegment()}/${randomSegment()}`),
        });
      else paths.push({ path: anyCase(probe.path), signedIn: probe.signedIn });
    }
    for (let i = 0; i < paths.length; i += 25) await Promise.all(paths.slice(i, i + 25).map((p) => send(p.path, p.signedIn)));

    const after = await httpSeries();
    for (const { route } of after) expect(known, route).toContain(route);
    const key = (s: { route: string; method: string; status: string }) => `${s.method} ${s.status} ${s.route}`;
    expect(after.map(key).sort()).toEqual(before.map(key).sort());
  });

  it('names a request by its route pattern whatever its spelling', async () => {
    await api.request('/API/Products/no-such-product');
    await api.request('/aPi/AdMiN/audit.CSV');
    const series = await httpSeries();
    expect(series).toContainEqual({ route: '/api/products/:slug', method: 'GET', status: '404' });
    expect(series).toContainEqual({ route: '/api/admin/audit.csv', method: 'GET', status: '401' });
    expect(series.map((s) => s.route).filter((r) => r !== r.toLowerCase() && !r.startsWith('/^'))).toEqual([]);
  });
});

describe("the back office's answers", () => {
  it('are never stored by a cache, whatever the spelling of their path', async () => {
    for (const path of ['/api/admin/me', '/aPi/AdMiN/me', '/API/ADMIN/ME']) {
      const res = await manager.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});
