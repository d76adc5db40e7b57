/**
 * Reads from a streaming replica (DATABASE_READ_URL, issue 24; docs/decisions/scale-out.md "Reads from a
 * replica"), against a real hot standby of the test server (migrations/src/testing/replica.ts) whose
 * replay runs 1.5 s behind: the catalogue, admin lists and reports read it, a person who has just
 * changed something reads the primary (read-your-writes), and without the setting everything reads
 * the primary as before.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startReplica, type Replica } from '@nh/server/testing/replica';
import { startTestApi, type TestApi } from './support/harness';
import { checkout, checkoutBody, makeProduct } from './support/card-checkout';
import { signInAs, type StaffClient } from './support/staff';
import { captureLog } from './support/log-capture';

const APPLY_DELAY_MS = 1500;

let replica: Replica;
let api: TestApi;
let staff: StaffClient;
const logged = captureLog();

beforeAll(async () => {
  replica = await startReplica(inject('databaseUrl'), { applyDelayMs: APPLY_DELAY_MS });
  // No catalogue cache: what an answer says comes from the database it read.
  api = await startTestApi({ DATABASE_READ_URL: replica.urlFor(inject('databaseUrl')), CATALOG_CACHE_SECONDS: '0', READ_YOUR_WRITES_MS: '5000' }, { log: logged.log });
  staff = await signInAs(api, 'manager');
}, 60_000);
afterAll(async () => {
  await api?.close();
  await replica?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `nh.rw=…` read-your-writes cookie a response set, or null. */
const markOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('nh.rw='))?.split(';')[0] ?? null;

/** Polls `read` until it answers `wanted`; the milliseconds that took. */
async function until<T>(read: () => Promise<T>, wanted: T, limitMs = 10_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await read()) === wanted) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`still not ${String(wanted)} after ${limitMs} ms`);
    await sleep(50);
  }
}

const priceOf = async (target: TestApi, slug: string, cookie?: string) => {
  const res = await target.request(`/api/products/${slug}`, { headers: cookie ? { cookie } : {} });
  return res.status === 200 ? ((await res.json()) as { price: string }).price : null;
};

/** The price in the product page's head (`product:price:amount`), as a link preview reads it. */
const pagePriceOf = async (slug: string, cookie?: string) => {
  const html = await (await api.request(`/product/${slug}`, { headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } })).text();
  const head = /property="product:price:amount" content="([^"]+)"/.exec(html)?.[1] ?? null;
  // The server render's body (its data block) read the same database (`npm run build` made the render).
  const body = html.slice(html.indexOf('<div id="root">'));
  expect(body).toContain(`$${head}`);
  return head;
};

/** A product written straight to the primary, once the replica has it too. */
async function replicatedProduct(): Promise<Awaited<ReturnType<typeof makeProduct>>> {
  const product = await makeProduct(api, 1999);
  await until(() => priceOf(api, product.slug), '19.99');
  return product;
}

describe('reads from a streaming replica', () => {
  it('a staff price change shows at once to that staff member; an anonymous shopper sees the old price until the replica replays it', async () => {
    const product = await replicatedProduct();
    const changed = await staff.request(`/api/products/${product.id}`, { method: 'PUT', body: { price: '24.99' } });
    expect(changed.status).toBe(200);
    const mark = markOf(changed);
    expect(mark).toMatch(/^nh\.rw=\d+\.[A-Za-z0-9_-]{22}$/);
    expect(changed.headers.getSetCookie().find((c) => c.startsWith('nh.rw='))).toMatch(/Max-Age=5; Path=\/; HttpOnly; SameSite=Lax$/);
    const changedAt = Date.now();

    // The staff member's browser sends the mark: the primary.
    expect(await priceOf(api, product.slug, `${staff.cookie}; ${mark}`)).toBe('24.99');
    // Anyone else (and the same person without the mark): the replica, still before the change.
    expect(await priceOf(api, product.slug)).toBe('19.99');
    expect(await priceOf(api, product.slug, staff.cookie)).toBe('19.99');
    // The product page (its head, and the server render's own catalogue calls) too.
    expect(await pagePriceOf(product.slug, `${staff.cookie}; ${mark}`)).toBe('24.99');
    expect(await pagePriceOf(product.slug)).toBe('19.99');
    // A forged or expired mark counts for nothing.
    const [until_, tag] = mark!.slice('nh.rw='.length).split('.');
    expect(await priceOf(api, product.slug, `nh.rw=${Number(until_) + 60_000}.${tag}`)).toBe('19.99');
    expect(await priceOf(api, product.slug, `nh.rw=${Date.now() - 1}.${tag}`)).toBe('19.99');
    // A tag of the right length holding a byte above 0x7f (read as latin1) is no mark either, not a 500.
    expect(await priceOf(api, product.slug, `nh.rw=${until_}.${tag!.slice(0, -1)}\u00e9`)).toBe('19.99');

    await until(() => priceOf(api, product.slug), '24.99');
    const seenAfter = Date.now() - changedAt;
    expect(seenAfter).toBeGreaterThan(APPLY_DELAY_MS - 600);
    expect(seenAfter).toBeLessThan(APPLY_DELAY_MS + 3000);
  });

  it('admin lists and reports read the replica, and the primary for a staff member who just changed something', async () => {
    const product = await replicatedProduct();
    const name = `Replicated ${randomUUID().slice(0, 8)}`;
    // Renamed and restocked on the primary only (as another process would): the replica has it 1.5 s later.
    await api.ctx.db.$client.query('update products set name = $2, inventory = 4321 where id = $1', [product.id, name]);
    // Any successful change marks the staff member who made it (here: a price written again).
    const changed = await staff.request(`/api/products/${product.id}`, { method: 'PUT', body: { price: '19.99' } });
    expect(changed.status).toBe(200);
    const mark = markOf(changed)!;

    const listed = async (cookie: string) => {
      const res = await api.request('/api/admin/products', { body: { search: name }, headers: { cookie } });
      expect(res.status).toBe(200);
      // A list is a POST that changes nothing: it marks nobody.
      expect(markOf(res)).toBeNull();
      return Number(res.headers.get('x-total-count'));
    };
    const inStock = async (cookie: string) => {
      const res = await api.request('/api/admin/reports/stock-cover', { headers: { cookie } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { products: Array<{ productId: number; inStock: number }> }).products.find((p) => p.productId === product.id)?.inStock;
    };

    expect(await listed(staff.cookie)).toBe(0);
    expect(await inStock(staff.cookie)).toBe(100000);
    expect(await listed(`${staff.cookie}; ${mark}`)).toBe(1);
    expect(await inStock(`${staff.cookie}; ${mark}`)).toBe(4321);

    await until(() => listed(staff.cookie), 1);
    expect(await inStock(staff.cookie)).toBe(4321);
  });

  it('the sales reports read the replica as its summary stands: only the primary folds the noted writes in, so the read does not fail over', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = logged.lines.length;
    const res = await api.request(`/api/admin/reports/sales?from=${today}&to=${today}`, { headers: { cookie: staff.cookie } });
    expect(res.status).toBe(200);
    expect(logged.lines.slice(before).filter((l) => String(l.msg).includes('a read from the replica'))).toEqual([]);
  });

  it('a checkout during the lag reads the primary (price, stock), and reports the replica lag as a metric', async () => {
    const product = await replicatedProduct();
    await api.ctx.db.$client.query('update products set inventory = 0 where id = $1', [product.id]);
    const refused = await checkout(api, await checkoutBody(api, product));
    // The replica still says 100000 in stock; the order path reads the primary and refuses.
    expect(refused.status).toBe(409);
    expect(await priceOf(api, product.slug)).toBe('19.99');

    const lag = Number(/^nh_db_replica_lag_seconds (\S+)$/m.exec(await api.services.metrics.metrics())?.[1]);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(60);
  });

  // Last: it stops the replica.
  it('a replica that is down sends its reads to the primary: the storefront and the lists keep answering, and the log says so once', async () => {
    const product = await replicatedProduct();
    await api.ctx.db.$client.query("update products set price = '21.00' where id = $1", [product.id]);
    await replica.stop();
    expect(await priceOf(api, product.slug)).toBe('21.00');
    expect(await pagePriceOf(product.slug)).toBe('21.00');
    const list = await staff.request('/api/admin/products', { body: { search: product.slug } });
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('x-total-count'))).toBe(1);
    const warnings = logged.lines.filter((l) => String(l.msg).includes('a read from the replica'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
  });

  it('without DATABASE_READ_URL every read is the primary and nobody is marked', async () => {
    const plain = await startTestApi({ CATALOG_CACHE_SECONDS: '0' });
    try {
      const product = await makeProduct(plain, 1999);
      const manager = await signInAs(plain, 'manager');
      const changed = await manager.request(`/api/products/${product.id}`, { method: 'PUT', body: { price: '24.99' } });
      expect(changed.status).toBe(200);
      expect(markOf(changed)).toBeNull();
      expect(await priceOf(plain, product.slug)).toBe('24.99');
      expect(plain.ctx.readDb).toBe(plain.ctx.db);
      expect(await plain.services.metrics.metrics()).not.toContain('nh_db_replica_lag_seconds');
    } finally {
      await plain.close();
    }
  });
});
