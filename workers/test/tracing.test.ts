/**
 * One trace from click to NetSuite (issue 12): with tracing on (here an in-memory exporter in the test
 * process, which runs the real API and a worker runtime), POST /api/payments/checkout-nonce, the outbox
 * row it writes, the relay, the sync job with its NetSuite requests and the confirmation email job with
 * its send are one trace: the outbox row keeps the traceparent of the API span that wrote it, and each
 * job's span is that span's child.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { startTestTracing, type TestSpan } from '@nh/server/testing/tracing';

// Before anything imports express, pg or ioredis: the code under test is imported after it, dynamically.
const tracing = await startTestTracing();
const { centsToDecimal, priceCart, toPayloadStrings } = await import('@nh/shared');
const { startTestApi } = await import('../../api/test/support/harness');
const { createTestDatabase, placeOrder, startTestWorkers, testWorkerConfig, waitFor } = await import('./support/setup');
const { startNetSuiteStub } = await import('./support/netsuite-stub');
const { TestSmtpServer } = await import('./support/smtp-server');

let tdb: Awaited<ReturnType<typeof createTestDatabase>>;
let runtime: Awaited<ReturnType<typeof startTestWorkers>>;
let api: Awaited<ReturnType<typeof startTestApi>>;
let stub: Awaited<ReturnType<typeof startNetSuiteStub>>;
let smtp: InstanceType<typeof TestSmtpServer>;

beforeAll(async () => {
  tdb = await createTestDatabase('trace');
  stub = await startNetSuiteStub();
  smtp = await new TestSmtpServer().start();
  const config = testWorkerConfig(tdb.url, 'trace', { ...stub.env(), SMTP_URL: smtp.url, WORKER_QUEUES: 'erp-sync,emails' });
  runtime = await startTestWorkers(config);
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX });
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(2000);
  await stub?.close();
  await smtp?.close();
  await tdb?.drop();
});

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  tdb.db.$client.query<T>(text, values).then((r) => r.rows);

/** A checkout of one unit of a product of this file's own, through the local sandbox, as the SPA sends it. */
async function checkout(email: string, requestId: string) {
  const name = `Trace Test ${randomUUID().slice(0, 8)}`;
  const price = 1250;
  const [product] = await q<{ id: number }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, $3, 10, 'active', $4) returning id`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), centsToDecimal(price), `T-${name.slice(-8)}`],
  );
  const tokenized = await api.request('/api/payments/sandbox/tokenize', {
    body: {
      authData: { clientKey: 'local-sandbox-client-key', apiLoginID: 'local-sandbox' },
      cardData: { cardNumber: '4111111111111111', month: '12', year: '2030', cardCode: '123', zip: '12345' },
    },
  });
  const { opaqueData } = (await tokenized.json()) as { opaqueData: { dataDescriptor: string; dataValue: string } };
  const strings = toPayloadStrings(priceCart([{ price, quantity: 1 }], { promo: null }));
  const address = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };
  const res = await api.request('/api/payments/checkout-nonce', {
    headers: { 'Idempotency-Key': randomUUID(), 'x-request-id': requestId },
    body: {
      amount: strings.total,
      ...opaqueData,
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      ...address,
      orderData: {
        items: [{ productId: product!.id, variantSku: null, quantity: 1, price: centsToDecimal(price) }],
        subtotal: strings.subtotal,
        shipping: strings.shipping,
        tax: strings.tax,
        total: strings.total,
        promoCode: null,
        shippingAddress: address,
        billingAddress: address,
      },
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { orderId: string }).orderId;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
const parentOf = (span: TestSpan) => span.parentSpanContext?.spanId;
const idOf = (span: TestSpan) => span.spanContext().spanId;
const traceOf = (span: TestSpan) => span.spanContext().traceId;

describe('one trace from POST /api/payments/checkout-nonce to NetSuite and the confirmation email', () => {
  it('tracing is on in this process', () => {
    expect(tracing.status).toEqual({ enabled: true, serviceName: 'nurture-home-test' });
  });

  it('the API request, the outbox row, the relay, the jobs, their NetSuite requests and the mail send share one trace', async () => {
    const requestId = `trace-${Date.now()}`;
    const email = `trace-${Date.now()}@example.com`;
    const orderId = await checkout(email, requestId);

    // The row keeps the traceparent of the API span that wrote it, beside the request id.
    const [row] = await q<{ id: string; request_id: string; trace_parent: string | null }>(
      `select id, request_id, trace_parent from outbox where topic = 'order.placed' and payload->>'orderId' = $1`,
      [orderId],
    );
    expect(row!.request_id).toBe(requestId);
    const [, traceId, recordedSpanId] = TRACEPARENT.exec(row!.trace_parent ?? '') ?? [];
    expect(traceId, `trace_parent ${row!.trace_parent}`).toBeDefined();

    // Both jobs carry it beside the request id, and run.
    const syncJob = `outbox-${row!.id}-sync-order`;
    const mailJob = `outbox-${row!.id}-order-confirmation`;
    for (const [queue, jobId] of [
      ['erp-sync', syncJob],
      ['emails', mailJob],
    ] as const) {
      const job = await waitFor(
        async () => {
          const found = await runtime.queues[queue].getJob(jobId);
          return found?.finishedOn ? found : null;
        },
        20_000,
        `job ${jobId}`,
      );
      expect(job.failedReason).toBeUndefined();
      expect(job.data._trace).toEqual({ requestId, traceParent: row!.trace_parent });
    }
    await waitFor(() => smtp.to(email).length > 0, 10_000, 'the confirmation email');

    const spans = await waitFor(
      () => {
        const all = tracing.spans().filter((s) => traceOf(s) === traceId);
        return ['mail send', 'sync-order', 'order-confirmation', 'outbox relay'].every((name) => all.some((s) => s.name === name)) && all;
      },
      10_000,
      'the spans of the trace',
    );
    const byId = new Map(spans.map((s) => [idOf(s), s]));
    const ancestors = (span: TestSpan): TestSpan[] => {
      const chain: TestSpan[] = [];
      for (let p = byId.get(parentOf(span) ?? ''); p; p = byId.get(parentOf(p) ?? '')) chain.push(p);
      return chain;
    };
    const one = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      expect(found, name).toHaveLength(1);
      return found[0]!;
    };

    // The API's request span is the trace's root; the span that wrote the row is inside it.
    const request = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/api/payments/checkout-nonce')!;
    expect(request).toBeDefined();
    expect(request.name).toBe('POST /api/payments/checkout-nonce');
    expect(parentOf(request)).toBeUndefined();
    const recorded = byId.get(recordedSpanId!)!;
    expect(recorded, 'the span the outbox row names').toBeDefined();
    expect(ancestors(recorded).at(-1)).toBe(request);
    // The checkout's queries are in it too, without the values they carry.
    const queries = spans.filter(
      (s) => s.attributes['db.system.name'] === 'postgresql' && s.attributes['db.query.text'] && ancestors(s).includes(request),
    );
    expect(queries.length).toBeGreaterThan(0);

    // The relay's step and both jobs: children of the span recorded with the row.
    const relay = one('outbox relay');
    expect(parentOf(relay)).toBe(recordedSpanId);
    expect(relay.kind).toBe(SpanKind.PRODUCER);
    expect(relay.attributes).toMatchObject({ 'nh.outbox.id': Number(row!.id), 'nh.outbox.topic': 'order.placed' });
    const sync = one('sync-order');
    const confirmation = one('order-confirmation');
    for (const [job, queue, jobId] of [
      [sync, 'erp-sync', syncJob],
      [confirmation, 'emails', mailJob],
    ] as const) {
      expect(parentOf(job)).toBe(recordedSpanId);
      expect(job.kind).toBe(SpanKind.CONSUMER);
      expect(job.attributes).toMatchObject({
        'messaging.destination.name': queue,
        'messaging.message.id': jobId,
        'nh.request_id': requestId,
        'nh.job.attempt': 1,
      });
    }

    // The NetSuite requests (customer, then sales order) are HTTP client spans of the sync job.
    const netsuite = spans.filter(
      (s) => s.kind === SpanKind.CLIENT && String(s.attributes['url.full'] ?? '').includes('/services/rest/record/v1/'),
    );
    expect(netsuite.map((s) => String(s.attributes['url.full']).split('/')[7])).toEqual(['customer', 'salesOrder']);
    for (const request of netsuite) expect(parentOf(request)).toBe(idOf(sync));
    // The mail send is a child of the confirmation job.
    const send = one('mail send');
    expect(parentOf(send)).toBe(idOf(confirmation));
    expect(send.attributes).toMatchObject({ 'nh.mail.transport': 'smtp', 'server.address': '127.0.0.1', 'server.port': smtp.port });

    // No span of the trace carries the customer's address (query literals withheld, recipients never recorded).
    for (const span of spans) expect(JSON.stringify(span.attributes), span.name).not.toContain(email);
  });

  it('a job whose outbox row was written outside any span is the root of a trace of its own', async () => {
    const orderId = await placeOrder(tdb.db);
    const [row] = await q<{ id: string; trace_parent: string | null }>(
      `select id, trace_parent from outbox where topic = 'order.placed' and payload->>'orderId' = $1`,
      [orderId],
    );
    expect(row!.trace_parent).toBeNull();
    const jobId = `outbox-${row!.id}-order-confirmation`;
    const span = await waitFor(
      () => tracing.spans().find((s) => s.name === 'order-confirmation' && s.attributes['messaging.message.id'] === jobId),
      20_000,
      'the job span',
    );
    expect(parentOf(span)).toBeUndefined();
    expect((await runtime.queues.emails.getJob(jobId))!.data).toEqual({ orderId });
  });

  it('a request span never keeps a one-click unsubscribe token (as the request log hides it)', async () => {
    const token = `secret-${randomUUID()}`;
    await api.request(`/api/newsletter/unsubscribe/${token}`);
    const span = await waitFor(
      () =>
        tracing
          .spans()
          .find((s) => s.kind === SpanKind.SERVER && String(s.attributes['url.path'] ?? '').startsWith('/api/newsletter/unsubscribe/')),
      10_000,
      'the request span',
    );
    expect(span.attributes['url.path']).toBe('/api/newsletter/unsubscribe/[redacted]');
    expect(JSON.stringify(tracing.spans().map((s) => [s.name, s.attributes]))).not.toContain(token);
  });
});
