/**
 * Hostile input never reaches PostgreSQL as a 500 (docs/decisions/input-validation.md). The routes come
 * from the app's own router stack, so a route added later is probed without editing this file:
 *
 * - every path parameter of every write route (and of every GET route) gets a NUL, a control character
 *   and integers beyond PostgreSQL's `integer`: the answer is a 4xx with a message;
 * - a write route with a known-good body below gets that body with one field at a time made hostile
 *   (a NUL, an escape character, or 2147483648 for a number): a 400 naming that field;
 * - a write route without one gets a body of hostile guesses: never a 5xx.
 *
 * Afterwards no table holds a row carrying this run's marker (every example body's text carries it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { priceCart, toPayloadStrings } from '@nh/shared';
import { MAX_ID } from '@nh/shared/contracts/fields';
import { startTestApi, type TestApi } from './support/harness';
import { sessionCookie, signInAs, STAFF_TEST_PASSWORD, type StaffClient } from './support/staff';
import { fillPath, listRoutes, pathParams } from './support/routes';

const MARKER = `hx${randomBytes(5).toString('hex')}`;
const TOO_BIG = MAX_ID + 1;
const BAD_PARAMS = ['\u0000', `a\u0000b`, `x\u001by`, String(TOO_BIG), '99999999999999999999'];
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Example {
  params?: Record<string, string>;
  body: { [key: string]: Json };
}

let examples: Record<string, Example> = {};
/** An owner (every admin permission) whose session cookie goes with every call, and a colleague to change. */
let staff: StaffClient;
let colleague: StaffClient;
const shopper = { email: `hostile.shopper.${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery staple', cookie: '' };

async function signIn(): Promise<void> {
  const res = await api.request('/api/login', { body: { email: shopper.email, password: shopper.password } });
  expect(res.status).toBe(200);
  shopper.cookie = sessionCookieOf(res)!;
}

const sessionCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('nh.sid='));

beforeAll(async () => {
  // A key prefix of its own: the refusals below count against rate limits kept in Redis.
  api = await startTestApi({ QUEUE_PREFIX: `${inject('queuePrefix')}-hostile` });
  const fixture = `fixture-${randomBytes(4).toString('hex')}`;
  const [category] = await q<{ id: number }>('select id from categories order by id limit 1');
  // Two products: one the checkout, review and order examples name, one the product edits change.
  // Capitalised names like every other test product: the catalogue test checks the name order.
  const [product, editable] = await q<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku, category_id)
     select initcap($1) || n, $1 || n, '12.50', 100, 'active', $1 || n, $2 from generate_series(1, 2) as n order by n returning id`,
    [fixture, category!.id],
  );
  const [order] = await q<{ id: string }>(
    `insert into orders (customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total)
     values ('fixture@example.com', 'Fixture Person', $1, $2, '12.50', '9.99', '1.00', '23.49') returning id`,
    [
      JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' }),
      JSON.stringify([{ productId: product!.id, productName: fixture, quantity: 1, price: '12.50', sku: fixture, variantSku: null }]),
    ],
  );
  const registered = await api.request('/api/register', { body: { firstName: 'Session', lastName: 'Holder', email: shopper.email, password: shopper.password } });
  expect(registered.status).toBe(201);
  shopper.cookie = sessionCookieOf(registered)!;

  const tokenized = await api.request('/api/payments/sandbox/tokenize', {
    body: {
      authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
    },
  });
  const { opaqueData } = (await tokenized.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } };

  staff = await signInAs(api, 'owner');
  colleague = await signInAs(api, 'support');
  const productId = product!.id;
  const admin = { storeCode: 'NH' };
  const address = { address: `1 ${MARKER} St`, city: 'Springfield', state: 'IL', zip: '12345' };
  const customer = { firstName: `Ada ${MARKER}`, lastName: 'Lovelace', email: `ada.${MARKER}@example.com`, ...address };
  const line = { productId, variantSku: null, quantity: 1, price: '12.50' };
  const checkoutPrices = toPayloadStrings(priceCart([{ price: 1250, quantity: 1 }], { promo: { discountType: 'fixed', discountValue: 5 } }));
  const planPrices = toPayloadStrings(priceCart([{ price: 1250, quantity: 1 }], { promo: null, subscribe: true }));
  const productFields = {
    name: `Hostile ${MARKER}`,
    price: '19.99',
    compareAtPrice: '24.99',
    categoryId: category!.id,
    description: `First line ${MARKER}\nsecond line`,
    shortDescription: `Short ${MARKER}`,
    instructions: `Spray ${MARKER}`,
    cautions: `Keep away ${MARKER}`,
    ingredients: [`Water ${MARKER}`],
    features: [`Feature ${MARKER}`],
    images: ['surfy.svg'],
    itemNumber: `IN-${MARKER}`,
    sku: `SKU-${MARKER}`,
    upc: `UPC-${MARKER}`,
    size: '16 oz',
    inventory: 5,
    weight: '16.00',
    caseCount: 6,
    status: 'active',
    variants: [{ label: `Big ${MARKER}`, price: '29.99', sku: `V-${MARKER}` }],
  };

  examples = {
    'POST /api/admin/orders/export': { body: admin },
    'POST /api/admin/orders/export/:id/status': { params: { id: randomUUID() }, body: admin },
    'POST /api/admin/orders/export/:id/download': { params: { id: randomUUID() }, body: admin },
    'POST /api/admin/sync/summary': { body: admin },
    'POST /api/admin/sync/failed': { body: admin },
    'POST /api/admin/sync/orders/:id/retry': { params: { id: order!.id }, body: admin },
    'POST /api/admin/sync/retry-failed': { body: admin },
    'POST /api/promo-codes': { body: { code: `H${MARKER}`, discountType: 'percentage', discountValue: 10 } },
    'PATCH /api/promo-codes/:id/toggle': { params: { id: String(MAX_ID) }, body: {} },
    'POST /api/products': { body: { slug: `hostile-${MARKER}`, ...productFields } },
    'PUT /api/products/:id': { params: { id: String(editable!.id) }, body: { slug: `hostile-put-${MARKER}`, ...productFields } },
    'DELETE /api/products/:id': { params: { id: String(MAX_ID) }, body: {} },
    'POST /api/admin/session': { body: { email: staff.email, password: STAFF_TEST_PASSWORD } },
    'POST /api/admin/staff/invitations': { body: { email: `invite.${MARKER}@example.com`, role: 'support' } },
    'PATCH /api/admin/staff/:id': { params: { id: colleague.id }, body: { role: 'fulfilment' } },
    'POST /api/admin/invitations/check': { body: { token: 'c'.repeat(43) } },
    'POST /api/admin/invitations/accept': { body: { token: 'a'.repeat(43), name: `Name ${MARKER}`, password: 'a long enough password' } },
    'POST /api/admin/password-reset': { body: { email: `nobody.${MARKER}@example.com` } },
    'POST /api/admin/password-reset/confirm': { body: { token: 'r'.repeat(43), password: 'a long enough password' } },
    'POST /api/admin/orders': { body: { ...admin, search: MARKER, status: 'all', limit: 10, offset: 0 } },
    'POST /api/admin/orders/:id': { params: { id: order!.id }, body: admin },
    'PATCH /api/admin/orders/:id': { params: { id: order!.id }, body: { ...admin, trackingNumber: `1Z${MARKER}`, carrier: 'UPS', status: 'shipped' } },
    'POST /api/products/:id/reviews': {
      params: { id: String(productId) },
      body: {
        rating: 5,
        customerName: `Reviewer ${MARKER}`,
        customerEmail: `reviewer.${MARKER}@example.com`,
        title: `Title ${MARKER}`,
        comment: `Works well ${MARKER}\nand smells nice`,
        productId,
        orderId: order!.id,
      },
    },
    'POST /api/newsletter': { body: { email: `reader.${MARKER}@example.com` } },
    'POST /api/login': { body: { email: shopper.email, password: shopper.password, returnTo: `/account?${MARKER}` } },
    'POST /api/login/email-code': { body: { email: `code.${MARKER}@example.com` } },
    'POST /api/login/email-code/verify': { body: { email: `code.${MARKER}@example.com`, code: '123456', returnTo: `/account?${MARKER}` } },
    'POST /api/register': { body: { firstName: `New ${MARKER}`, lastName: 'Person', email: `new.${MARKER}@example.com`, password: 'correct horse battery', returnTo: '/' } },
    'POST /api/payments/checkout-nonce': {
      body: {
        ...customer,
        ...opaqueData,
        amount: checkoutPrices.total,
        orderData: {
          items: [line],
          subtotal: checkoutPrices.subtotal,
          discount: checkoutPrices.discount,
          shipping: checkoutPrices.shipping,
          tax: checkoutPrices.tax,
          total: checkoutPrices.total,
          promoCode: 'save5',
          shippingAddress: address,
          billingAddress: address,
        },
      },
    },
    'POST /api/payments/subscribe-nonce': {
      body: { ...customer, ...opaqueData, amount: planPrices.total, interval: 'monthly', items: [line], shippingAddress: address },
    },
    'POST /api/subscriptions/:id/resume': { params: { id: randomUUID() }, body: opaqueData },
    'POST /api/subscriptions/:id/card': { params: { id: randomUUID() }, body: opaqueData },
    'POST /api/subscriptions/:id/skip': { params: { id: randomUUID() }, body: { period: '2030-01-01' } },
    'POST /api/subscriptions/:id/reschedule': { params: { id: randomUUID() }, body: { nextBillingDate: '2030-01-01' } },
    'PUT /api/subscriptions/:id/items': { params: { id: randomUUID() }, body: { items: [{ productId: 1, variantSku: 'S-1', quantity: 1 }] } },
    'POST /api/subscriptions/:id/frequency': { params: { id: randomUUID() }, body: { intervalCount: 2 } },
    'POST /api/subscriptions/:id/one-time-items': { params: { id: randomUUID() }, body: { productId: 1, size: 'S-1', quantity: 1 } },
  };
});
afterAll(() => api?.close());

/** A body for a route this file has no example of: hostile guesses at common field names. */
const GUESSES: Example['body'] = {
  storeCode: `N\u0000H`,
  email: `guess.${MARKER}\u0000@example.com`,
  name: `Guess ${MARKER}\u0000`,
  text: `Guess ${MARKER}\u0000`,
  code: `G${MARKER}\u0000`,
  id: TOO_BIG,
  productId: TOO_BIG,
  quantity: TOO_BIG,
};

/** Every leaf of a JSON body with its path as zod reports it (`orderData.items.0.productId`). */
function leaves(value: Json, path: string[] = []): Array<{ path: string[]; value: Json }> {
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, v]) => leaves(v, [...path, key]));
  return [{ path, value }];
}

function withLeaf(body: Example['body'], path: string[], value: Json): Example['body'] {
  const copy = structuredClone(body);
  let node: Record<string, Json> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, Json>;
  node[path.at(-1)!] = value;
  return copy;
}

/** The hostile versions of one leaf. Passwords are secrets, never text: hashed or compared as sent. */
function hostileValues(path: string[], value: Json): Json[] {
  if (path.at(-1) === 'password') return [];
  if (typeof value === 'string') return [`${value}\u0000`, `${value}\u001b`];
  if (typeof value === 'number') return [TOO_BIG];
  return [];
}

interface Answer {
  status: number;
  body: { message?: unknown; fields?: Record<string, string> } | null;
}

/** One call as the signed-in shopper and the signed-in owner (admin calls authenticate by the staff cookie). */
async function send(method: string, path: string, body: unknown): Promise<Answer> {
  // Redirects are not followed: a redirect is the route's answer (the SPA behind it may not be built).
  const res = await fetch(api.url + path, {
    method,
    redirect: 'manual',
    headers: { cookie: `${shopper.cookie}; ${staff.cookie}`, 'Idempotency-Key': randomUUID(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // A probe that signed in or out (login, logout) replaced the session: sign in again for the next.
  if (sessionCookieOf(res)) await signIn();
  // A staff sign-in or sign-out probe replaced or ended the owner's session: keep the new one, or sign in again.
  const staffSet = res.headers.getSetCookie().find((c) => c.startsWith('nh.staff='));
  if (staffSet) staff = staffSet.startsWith('nh.staff=;') ? await signInAs(api, 'owner') : { ...staff, cookie: sessionCookie(res) };
  let parsed: Answer['body'] = null;
  try {
    parsed = JSON.parse(text) as Answer['body'];
  } catch {
    // not JSON: the assertions below say so
  }
  return { status: res.status, body: parsed };
}

const describeAnswer = (label: string, answer: Answer) => `${label} → ${answer.status} ${JSON.stringify(answer.body)}`;

describe('hostile input', () => {
  it('finds the write routes in the app', () => {
    const routes = listRoutes(api.app).filter((r) => WRITE_METHODS.has(r.method) && r.path.startsWith('/api/'));
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(Object.keys(examples)));
  });

  it('answers every hostile path parameter with a 4xx and a message', async () => {
    const routes = listRoutes(api.app).filter((r) => r.path.startsWith('/api/') && pathParams(r.path).length > 0);
    const failures: string[] = [];
    let probes = 0;
    for (const route of routes) {
      const example = examples[`${route.method} ${route.path}`];
      for (const name of pathParams(route.path)) {
        for (const bad of BAD_PARAMS) {
          const path = fillPath(route.path, (param) => (param === name ? bad : (example?.params?.[param] ?? '1')));
          const answer = await send(route.method, path, route.method === 'GET' ? undefined : (example?.body ?? GUESSES));
          probes++;
          if (answer.status < 400 || answer.status >= 500 || typeof answer.body?.message !== 'string') {
            failures.push(describeAnswer(`${route.method} ${path}`, answer));
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(probes).toBeGreaterThan(50);
  });

  it('answers every hostile field of a known body with a 400 naming that field', async () => {
    const failures: string[] = [];
    let probes = 0;
    for (const route of listRoutes(api.app)) {
      const example = examples[`${route.method} ${route.path}`];
      if (!example) continue;
      const path = fillPath(route.path, (param) => example.params![param]!);
      for (const leaf of leaves(example.body)) {
        for (const bad of hostileValues(leaf.path, leaf.value)) {
          const answer = await send(route.method, path, withLeaf(example.body, leaf.path, bad));
          probes++;
          const field = leaf.path.join('.');
          if (answer.status !== 400 || typeof answer.body?.message !== 'string' || !answer.body.fields?.[field]) {
            failures.push(describeAnswer(`${route.method} ${path} ${field}=${JSON.stringify(bad)}`, answer));
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(probes).toBeGreaterThan(100);
  });

  it('never answers a write route it has no example for with a 5xx', async () => {
    const failures: string[] = [];
    for (const route of listRoutes(api.app)) {
      if (!WRITE_METHODS.has(route.method) || !route.path.startsWith('/api/') || examples[`${route.method} ${route.path}`]) continue;
      const path = fillPath(route.path, () => '1');
      const answer = await send(route.method, path, GUESSES);
      if (answer.status >= 500 || (answer.status >= 400 && typeof answer.body?.message !== 'string')) failures.push(describeAnswer(`${route.method} ${path}`, answer));
    }
    expect(failures).toEqual([]);
  });

  it('refuses a control character in the promo code path and too long a code as unknown', async () => {
    const control = await send('GET', `/api/promo-codes/validate/${encodeURIComponent('SAVE5\u0000')}`, undefined);
    expect(control).toEqual({ status: 400, body: { message: 'Please remove tabs, line breaks and other invisible control characters from this field.', code: 'VALIDATION_FAILED' } });
    const tooLong = await send('GET', `/api/promo-codes/validate/${'X'.repeat(60)}`, undefined);
    expect(tooLong).toEqual({ status: 404, body: { message: 'This promo code is invalid or expired', code: 'PROMO_NOT_FOUND' } });
  });

  it('keeps line breaks where text is multi-line and refuses them where it is not', async () => {
    const product = examples['PUT /api/products/:id']!;
    const path = fillPath('/api/products/:id', () => product.params!.id!);
    const multiline = await send('PUT', path, { description: 'One\nTwo\tthree', name: ' Trimmed name ' });
    expect(multiline.status).toBe(200);
    expect(multiline.body).toMatchObject({ description: 'One\nTwo\tthree', name: 'Trimmed name' });
    const singleLine = await send('PUT', path, { name: 'Two\nlines' });
    expect(singleLine).toEqual({
      status: 400,
      body: { message: 'Please remove tabs, line breaks and other invisible control characters from this field.', code: 'VALIDATION_FAILED', fields: { name: expect.any(String) } },
    });
  });

  it('wrote nothing for the refused requests', async () => {
    const tables = await q<{ name: string }>(`select quote_ident(table_name) as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const found: string[] = [];
    for (const { name } of tables) {
      const [row] = await q<{ n: number }>(`select count(*)::int as n from ${name} t where t::text ilike $1`, [`%${MARKER}%`]);
      if (row!.n > 0) found.push(`${name}: ${row!.n}`);
    }
    expect(found).toEqual([]);
  });
});
