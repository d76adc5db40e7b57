/**
 * One trace from click to NetSuite (issue 12): with tracing on (here an in-memory exporter in the test
 * process, which runs the real API and a worker runtime), POST /api/payments/checkout-nonce, the outbox
 * row it writes, the relay, the sync job with its NetSuite requests and the confirmation email job with
 * its send are one trace: the outbox row keeps the traceparent of the API span that wrote it, and each
 * job's span is that span's child.
 */
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
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
const { createLogger } = await import('@nh/server/observability/logger');

/** The worker's log lines, parsed. */
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

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
  runtime = await startTestWorkers(config, createLogger('workers-test', 'info', sink));
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

    // The job's log lines name its trace and its span: a line found in the logs opens the trace.
    const sent = await waitFor(() => lines.find((l) => l.jobId === mailJob && l.msg === 'email sent'), 10_000, 'the email sent log line');
    expect(sent).toMatchObject({ reqId: requestId, trace_id: traceId, span_id: idOf(confirmation) });
    // Outside any span (the worker's start-up line), no trace fields.
    expect(lines.find((l) => l.msg === 'workers started')).not.toHaveProperty('trace_id');

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

  it('a cached catalogue answer is traced with its route (with tracing on, no answer is sent ahead of Express)', async () => {
    const routed = () => tracing.spans().filter((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/api/products');
    const before = routed().length;
    // The first request fills the catalogue cache; the second is a cached answer, the kind the API
    // otherwise sends ahead of Express (api/src/lib/ahead-of-express.ts), without Express's spans.
    for (let i = 0; i < 2; i += 1) expect((await api.request('/api/products')).status).toBe(200);
    const spans = await waitFor(
      () => {
        const found = routed();
        return found.length >= before + 2 && found.slice(before);
      },
      10_000,
      'the two request spans',
    );
    expect(spans.every((s) => s.name === 'GET /api/products')).toBe(true);
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

  it('a request span never keeps a token from a query string (an emailed link from before the tokens moved to the fragment)', async () => {
    const token = `secret-${randomUUID()}`;
    await api.request(`/api/orders/access?utm_source=email&token=${token}`);
    const span = await waitFor(
      () => tracing.spans().find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/api/orders/access'),
      10_000,
      'the request span',
    );
    expect(span.attributes['url.query']).toBe('utm_source=email&token=[redacted]');
    expect(JSON.stringify(tracing.spans().map((s) => [s.name, s.attributes, s.events]))).not.toContain(token);
  });
});

/** A collector that speaks OTLP/HTTP with JSON bodies (what the http exporter sends): keeps every span it is sent. */
async function startJsonCollector() {
  const spans: Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string; service: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      type Body = {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans?: Array<{ spans?: typeof spans }>;
        }>;
      };
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ ...span, service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { spans, endpoint, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Runs one of the programs' source entry points with its tracing preload, as the Procfile runs the build. */
const runTraced = (preload: string, entry: string, args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', preload, entry, ...args], {
    env: { ...process.env, OTEL_BSP_SCHEDULE_DELAY: '100', ...env },
  });

describe('the commands an operator runs are traced too', () => {
  it('run-now: the command is the root of a trace and the job run it asked for is its child', async () => {
    const collector = await startJsonCollector();
    try {
      await runTraced('./workers/src/instrument.ts', 'workers/src/run-now.ts', ['reconcile-sync'], {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        REDIS_URL: runtime.config.REDIS_URL,
        QUEUE_PREFIX: runtime.config.QUEUE_PREFIX,
        DATABASE_URL: tdb.url,
      });
      // Flushed before the command exited.
      const command = collector.spans.find((s) => s.name === 'run-now reconcile-sync');
      expect(command, JSON.stringify(collector.spans.map((s) => s.name))).toBeDefined();
      expect(command!.parentSpanId ?? '').toBe('');
      expect(command!.service).toBe('nurture-home-worker');
      // The worker (this process) runs the job in a span whose parent is the command's.
      const run = await waitFor(
        () => tracing.spans().find((s) => s.name === 'reconcile-sync' && traceOf(s) === command!.traceId),
        20_000,
        'the reconcile-sync run',
      );
      expect(parentOf(run)).toBe(command!.spanId);
    } finally {
      await collector.close();
    }
  });

  it('the release step: migrate is the root span of its trace, its SQL statements the children', async () => {
    const collector = await startJsonCollector();
    try {
      const { stdout } = await runTraced('./migrations/src/instrument.ts', 'migrations/src/migrate.ts', [], {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        DATABASE_URL: tdb.url,
      });
      expect(stdout).toContain('[migrate] migrations applied');
      const root = collector.spans.find((s) => s.name === 'migrate');
      expect(root, JSON.stringify(collector.spans.map((s) => s.name))).toBeDefined();
      expect(root!.service).toBe('nurture-home-release');
      const statements = collector.spans.filter((s) => s.traceId === root!.traceId && s.spanId !== root!.spanId);
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.some((s) => s.parentSpanId === root!.spanId)).toBe(true);
    } finally {
      await collector.close();
    }
  });
});
