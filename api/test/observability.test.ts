/**
 * The API's instruments (issue 12): Prometheus metrics after real checkouts, the public /metrics behind
 * METRICS_TOKEN, the METRICS_PORT listener, /readyz while draining, and the request id kept on the
 * outbox rows a request writes (checkout, subscribe, resume, a back-office write).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, priceCart, toPayloadStrings } from '@nh/shared';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { listenApi } from '../src/server';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs } from './support/staff';
import { checkoutBody, makeProduct as makeCheckoutProduct, tokenizeCard as tokenize } from './support/card-checkout';

const TOKEN = 'metrics-token-for-tests-0123456789';

let api: TestApi;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi({ METRICS_TOKEN: TOKEN });
});
afterAll(() => api.close());

/**
 * The value of the first sample of `name` whose labels include `labels` in Prometheus text (undefined
 * when there is none).
 */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const scrape = async (target: TestApi = api) => {
  const res = await target.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
};

/** A product on sale (in the shared test API unless another is named). */
const makeProduct = (target: TestApi = api, price = 1999) => makeCheckoutProduct(target, price);

const checkout = (target: TestApi, body: unknown, requestId?: string) =>
  target.request('/api/payments/checkout-nonce', {
    body,
    headers: { 'Idempotency-Key': randomUUID(), ...(requestId ? { 'x-request-id': requestId } : {}) },
  });

const outboxRequestIds = (topic: string, key: string, id: string) =>
  q<{ request_id: string | null }>(`select request_id from outbox where topic = $1 and payload->>'${key}' = $2 order by id`, [
    topic,
    id,
  ]).then((rows) => rows.map((r) => r.request_id));

describe('API metrics', () => {
  it('after checkouts: outcomes counted, requests timed by route pattern, the gateway call timed, process metrics present', async () => {
    const product = await makeProduct();
    const approved = await checkout(api, await checkoutBody(api, product));
    expect(approved.status).toBe(200);
    const declined = await checkout(api, await checkoutBody(api, product, '46282'));
    expect(declined.status).toBe(402);
    expect((await api.request(`/api/products/${product.slug}`)).status).toBe(200);
    expect((await api.request('/api/products/no-such-product-here')).status).toBe(404);

    const text = await scrape();
    expect(sample(text, 'nh_checkouts_total', { outcome: 'approved', kind: 'checkout' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nh_checkouts_total', { outcome: 'declined', kind: 'checkout' })).toBeGreaterThanOrEqual(1);
    // Every outcome's series exists from the start.
    for (const outcome of ['error', 'unknown'])
      expect(sample(text, 'nh_checkouts_total', { outcome, kind: 'subscribe' })).toBeGreaterThanOrEqual(0);

    const requests = (labels: Record<string, string>) => sample(text, 'nh_http_request_duration_seconds_count', labels);
    expect(requests({ route: '/api/payments/checkout-nonce', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(requests({ route: '/api/payments/checkout-nonce', method: 'POST', status: '402' })).toBeGreaterThanOrEqual(1);
    expect(requests({ route: '/api/products/:slug', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    // A route that threw (404 answered by the error handler) keeps its pattern; no URL becomes a label.
    expect(requests({ route: '/api/products/:slug', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(product.slug);
    expect(
      sample(text, 'nh_http_request_duration_seconds_bucket', {
        route: '/api/payments/checkout-nonce',
        method: 'POST',
        status: '200',
        le: '+Inf',
      }),
    ).toBeGreaterThanOrEqual(1);

    const gateway = (outcome: string) =>
      sample(text, 'nh_payment_gateway_duration_seconds_count', { provider: 'local-sandbox', operation: 'chargeOpaqueData', outcome });
    expect(gateway('approved')).toBeGreaterThanOrEqual(1);
    expect(gateway('declined')).toBeGreaterThanOrEqual(1);

    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
    // The API reports its own metrics only (no job durations).
    expect(text).not.toContain('nh_job_duration_seconds');
  });

  it('GET /metrics on the public port: refused without the token or with a wrong one, answered with it', async () => {
    const none = await api.request('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await none.json()).toEqual({
      message: 'The metrics need the bearer token set in METRICS_TOKEN.',
      code: 'METRICS_TOKEN_REQUIRED',
    });
    const wrong = await api.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const right = await api.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await right.text()).toContain('# TYPE nh_http_request_duration_seconds histogram');
  });

  it('without METRICS_TOKEN the public /metrics is an unknown API route (JSON 404, never the SPA page)', async () => {
    const plain = await startTestApi();
    try {
      const res = await plain.request('/metrics', { headers: { accept: 'text/html' } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'No API route GET /metrics', code: 'ROUTE_NOT_FOUND' });
      const withToken = await plain.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(withToken.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('METRICS_PORT listener and draining', () => {
  it('serves /metrics without a token, /healthz and /readyz; /readyz answers 503 while the API drains its in-flight requests', async () => {
    // Slow charges, so a checkout is still in flight when the drain starts.
    const slow = await startTestApi({ PAYMENTS_SANDBOX_LATENCY_MS: '1000' });
    const config = { ...slow.ctx.config, PORT: 0, HOST: '127.0.0.1', METRICS_PORT: 0 };
    const served = await listenApi({ ...slow.ctx, config }, slow.services, slow.listener);
    try {
      const internal = served.metrics!.url;
      const metrics = await fetch(`${internal}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('nh_checkouts_total');
      expect(await (await fetch(`${internal}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${internal}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
      expect((await fetch(`${internal}/nothing`)).status).toBe(404);

      const product = await makeProduct(slow);
      const body = await checkoutBody(slow, product);
      const inFlight = fetch(`http://127.0.0.1:${served.port}/api/payments/checkout-nonce`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(body),
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const drained = served.drain();

      const draining = await fetch(`${internal}/readyz`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toEqual({ status: 'draining', checks: { postgres: 'ok', redis: 'ok' } });
      // The same answer on the public /readyz (here: the harness's listener of the same app, still open).
      const publicReady = await slow.request('/readyz');
      expect(publicReady.status).toBe(503);
      // The drained listener takes no new connection; the request in flight is answered.
      await expect(fetch(`http://127.0.0.1:${served.port}/healthz`)).rejects.toThrow();
      expect((await inFlight).status).toBe(200);
      await drained;
      // Liveness is not readiness: still alive while draining.
      expect((await fetch(`${internal}/healthz`)).status).toBe(200);
    } finally {
      await served.drain();
      await served.close();
      await slow.close();
    }
  });
});

describe('the request id travels into the outbox', () => {
  it('a checkout: the order.placed row carries the x-request-id of the call', async () => {
    const requestId = `obs-checkout-${randomUUID()}`;
    const res = await checkout(api, await checkoutBody(api, await makeProduct()), requestId);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const { orderId } = (await res.json()) as { orderId: string };
    expect(await outboxRequestIds('order.placed', 'orderId', orderId)).toEqual([requestId]);
  });

  it('without x-request-id, the generated id the response names', async () => {
    const res = await checkout(api, await checkoutBody(api, await makeProduct()));
    const { orderId } = (await res.json()) as { orderId: string };
    const generated = res.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(await outboxRequestIds('order.placed', 'orderId', orderId)).toEqual([generated]);
  });

  it("a caller's x-request-id that does not look like an id (spaces, quotes, markup) is replaced by a new one", async () => {
    for (const hostile of ['<script>alert(1)</script>', "x' or 1=1 --", 'two words', 'a'.repeat(129)]) {
      const res = await api.request('/api/auth/user', { headers: { 'x-request-id': hostile } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const kept = await api.request('/api/auth/user', { headers: { 'x-request-id': 'Root=1-67891233-abcdef012345678912345678' } });
    expect(kept.headers.get('x-request-id')).toBe('Root=1-67891233-abcdef012345678912345678');
  });

  it('subscribe and resume (a signed-in shopper) and a back-office write (an order marked shipped)', async () => {
    const email = `obs.${randomBytes(4).toString('hex')}@example.com`;
    const signUp = await api.request('/api/register', {
      body: { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' },
    });
    expect(signUp.status).toBe(201);
    const { user } = (await signUp.json()) as { user: { id: string } };
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('nh.sid='))!;

    // Subscribe: the order's and the plan's rows.
    const product = await makeProduct(api, 1250);
    const opaque = await tokenize(api, '12345');
    const pricing = toPayloadStrings(priceCart([{ price: product.price, quantity: 1 }], { promo: null, subscribe: true }));
    const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
    const subscribeId = `obs-subscribe-${randomUUID()}`;
    const subscribed = await api.request('/api/payments/subscribe-nonce', {
      body: {
        amount: pricing.total,
        ...opaque,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email,
        ...address,
        interval: 'monthly',
        items: [{ productId: product.id, variantSku: null, quantity: 1, price: centsToDecimal(product.price) }],
        shippingAddress: address,
      },
      headers: { cookie, 'Idempotency-Key': randomUUID(), 'x-request-id': subscribeId },
    });
    expect(subscribed.status).toBe(200);
    const { subscriptionId, orderId } = (await subscribed.json()) as { subscriptionId: string; orderId: string };
    expect(await outboxRequestIds('order.placed', 'orderId', orderId)).toEqual([subscribeId]);
    expect(await outboxRequestIds('subscription.created', 'subscriptionId', subscriptionId)).toEqual([subscribeId]);

    // Resume: a plan paused by dunning, restarted with a new card.
    const items = [
      { productId: product.id, productName: 'Observed', variantSku: null, sku: 'O-1', itemNumber: null, quantity: 1, price: '12.50' },
    ];
    const [paused] = await q<{ id: string; next_billing_date: Date }>(
      `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, failed_attempts, shipping_address, authnet_customer_profile_id, authnet_payment_profile_id)
       values ($1, $2, 'Ada Lovelace', $3, '12.50', date_trunc('day', now(), 'UTC') - interval '11 days' + interval '14 hours', 'paused', 4, $4, '11110000', '22220000')
       returning id, next_billing_date`,
      [user.id, email, JSON.stringify(items), JSON.stringify(address)],
    );
    await q(
      `insert into payment_transactions (subscription_id, billing_period, amount, status, response_message) values ($1, $2, '12.50', 'declined', 'This transaction has been declined.')`,
      [paused!.id, billingPeriodOf(paused!.next_billing_date)],
    );
    const resumeId = `obs-resume-${randomUUID()}`;
    const resumed = await api.request(`/api/subscriptions/${paused!.id}/resume`, {
      body: await tokenize(api, '12345'),
      headers: { cookie, 'x-request-id': resumeId },
    });
    expect(resumed.status).toBe(200);
    expect(await outboxRequestIds('subscription.resumed', 'subscriptionId', paused!.id)).toEqual([resumeId]);

    // A back-office write: the order marked shipped (order.shipped).
    const staff = await signInAs(api, 'owner');
    const shipId = `obs-ship-${randomUUID()}`;
    const shipped = await staff.request(`/api/admin/orders/${orderId}`, {
      method: 'PATCH',
      body: { status: 'shipped' },
      headers: { 'x-request-id': shipId },
    });
    expect(shipped.status).toBe(200);
    expect(await outboxRequestIds('order.shipped', 'orderId', orderId)).toEqual([shipId]);
  });
});
