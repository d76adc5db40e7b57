/** The checks of `npm run test:scale` that go through the API processes (and the proxy in front of them). */
import { z } from 'zod';
import { exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { parseCsv } from '@nh/server/testing/csv';
import { call, staffCookieOf } from './http';
import { sleep, waitFor } from '@nh/server/testing/wait-for';
import { stopProcess } from './processes';
import { ADMIN, CACHE_SECONDS, type Stack } from './stack';

export interface CheckResult {
  ok: boolean;
  detail: string;
}

/** Signs the first owner in through `base` from `from`; the session cookie. */
export async function signInOwner(base: string, from: string): Promise<string> {
  const res = await call(base, '/api/admin/session', { body: ADMIN, from });
  if (res.status !== 200) throw new Error(`owner sign-in: ${res.status} ${await res.text()}`);
  return staffCookieOf(res);
}

/** Signed in on one API, the session works on the other (sessions live in Postgres, not in a process). */
export async function sessionAcrossApis(stack: Stack): Promise<CheckResult> {
  const [a, b] = stack.apis;
  const cookie = await signInOwner(a!.url, '198.51.100.10');
  const statuses: number[] = [];
  for (const api of [b!, a!, b!]) {
    const res = await call(api.url, '/api/admin/me', { cookie, from: '198.51.100.10' });
    const body = (await res.json()) as { email?: string };
    statuses.push(res.status === 200 && body.email === ADMIN.email ? 200 : res.status);
  }
  return {
    ok: statuses.every((s) => s === 200),
    detail: `signed in on ${a!.name}; /api/admin/me on ${b!.name}, ${a!.name}, ${b!.name}: ${statuses.join(', ')}`,
  };
}

/** 10 wrong passwords spread over both APIs; the 11th sign-in (even the right password) is refused by either. */
export async function eleventhSignInRefused(stack: Stack): Promise<CheckResult> {
  const from = '203.0.113.77';
  const failures: number[] = [];
  for (let i = 0; i < 10; i++) {
    const api = stack.apis[i % 2]!;
    failures.push((await call(api.url, '/api/admin/session', { body: { email: ADMIN.email, password: `wrong ${i}` }, from })).status);
  }
  const eleventh = await Promise.all(
    stack.apis.map(async (api) => (await call(api.url, '/api/admin/session', { body: ADMIN, from })).status),
  );
  const ok = failures.every((s) => s === 401) && eleventh.every((s) => s === 429);
  return { ok, detail: `10 failures alternating APIs: ${[...new Set(failures)].join('/')}; 11th on each API: ${eleventh.join(', ')}` };
}

const storefrontProduct = z.object({ id: z.number(), slug: z.string(), price: z.union([z.string(), z.number()]) });

/** A price changed through one API shows on the other within CATALOG_CACHE_SECONDS (each process caches). */
export async function priceChangeVisible(stack: Stack, cookie: string): Promise<CheckResult> {
  const [a, b] = stack.apis;
  const products = storefrontProduct.array().parse(await (await call(b!.url, '/api/products')).json());
  const product = products[0]!;
  const read = async () => Number(storefrontProduct.parse(await (await call(b!.url, `/api/products/${product.slug}`)).json()).price);
  const before = await read(); // now in the other API's cache
  const next = (Math.round(before * 100) + 123) / 100;
  const changed = Date.now();
  const put = await call(a!.url, `/api/products/${product.id}`, { method: 'PUT', body: { price: next.toFixed(2) }, cookie });
  if (put.status !== 200) return { ok: false, detail: `PUT /api/products/${product.id} on ${a!.name}: ${put.status} ${await put.text()}` };
  // Reads of the other API until it shows the new price: the last that showed the old one must have been
  // sent within the cache time of the change (a slow machine makes reads slower, not staler).
  let lastStale = 0;
  const freshAt = await waitFor(
    async () => {
      const sentAt = Date.now() - changed;
      if ((await read()) === next) return Math.max(1, sentAt);
      lastStale = sentAt;
      return null;
    },
    CACHE_SECONDS * 1000 + 10_000,
    'the new price',
    50,
  ).catch(() => null);
  return {
    ok: freshAt !== null && lastStale < CACHE_SECONDS * 1000,
    detail: `${product.slug} ${before.toFixed(2)} → ${next.toFixed(2)} on ${a!.name}; on ${b!.name} the last old price was read ${lastStale} ms after the change, the new one from ${freshAt ?? 'never'} ms (cache ${CACHE_SECONDS} s)`,
  };
}

/** An export started through one API (run by a worker, file on S3) is followed and downloaded through the other. */
export async function exportAcrossApis(stack: Stack, cookie: string): Promise<CheckResult> {
  const [a, b] = stack.apis;
  const started = await call(a!.url, '/api/admin/orders/export', { body: {}, cookie });
  if (started.status !== 202 && started.status !== 200)
    return { ok: false, detail: `export on ${a!.name}: ${started.status} ${await started.text()}` };
  const { exportId } = exportStartedSchema.parse(await started.json());
  const status = await waitFor(
    async () => {
      const s = exportStatusSchema.parse(
        await (await call(b!.url, `/api/admin/orders/export/${exportId}/status`, { body: {}, cookie })).json(),
      );
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    30_000,
    'the export',
    200,
  );
  if (status.status !== 'completed') return { ok: false, detail: `export ${status.status}` };
  const file = await call(b!.url, `/api/admin/orders/export/${exportId}/download`, { body: {}, cookie });
  const rows = parseCsv(await file.text());
  return {
    ok: file.status === 200 && rows[0]?.[0] === 'Order ID' && rows.length - 1 === status.rowsDone && status.rowsDone > 0,
    detail: `started on ${a!.name}, followed and downloaded on ${b!.name} (its file on S3): ${file.status}, ${rows.length - 1} rows (${status.rowsDone} written)`,
  };
}

/**
 * Shoppers and staff keep loading the proxy while one API gets SIGTERM: readiness answers 503 first,
 * the proxy stops sending to it, then it closes; no request fails.
 */
export async function sigtermUnderLoad(stack: Stack, cookie: string): Promise<CheckResult> {
  const victim = stack.apis[0]!;
  let running = true;
  const tally = { ok: 0, failed: 0, duringShutdown: 0, reasons: new Map<string, number>() };
  /** From SIGTERM to the API's exit (requests sent then are the ones a bad shutdown would fail). */
  const window = { from: Infinity, to: Infinity };
  const fail = (reason: string) => {
    tally.failed++;
    tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
  };
  const paths = ['/api/products', '/api/admin/me', '/api/categories', '/api/admin/me'];
  const loop = async (n: number) => {
    for (let i = n; running; i++) {
      const path = paths[i % paths.length]!;
      const sent = Date.now();
      try {
        const res = await call(stack.proxy.url, path, { cookie });
        await res.arrayBuffer();
        if (res.status !== 200) fail(`HTTP ${res.status}`);
        else {
          tally.ok++;
          // The window's end is only known once the API has exited: sent after SIGTERM and before then.
          if (sent >= window.from && sent <= window.to) tally.duringShutdown++;
        }
      } catch (error) {
        fail((error as Error).cause ? String((error as Error).cause) : String(error));
      }
    }
  };
  const loops = Array.from({ length: 12 }, (_, i) => loop(i));
  await sleep(1000);
  const signalled = Date.now();
  window.from = signalled;
  const code = await stopProcess(victim.proc, 'SIGTERM', 20_000);
  window.to = Date.now();
  const tookMs = window.to - signalled;
  await sleep(1000);
  running = false;
  await Promise.all(loops);
  const reasons = [...tally.reasons].map(([r, n]) => `${n}× ${r}`).join('; ');
  await stack.startApi(victim); // back in the pool for what follows
  return {
    ok: tally.failed === 0 && tally.duringShutdown >= 20 && code === 0,
    detail: `${tally.ok} answered (${tally.duringShutdown} sent while ${victim.name} shut down), ${tally.failed} failed${reasons ? ` (${reasons})` : ''}; ${victim.name} exited ${code} after ${tookMs} ms`,
  };
}
