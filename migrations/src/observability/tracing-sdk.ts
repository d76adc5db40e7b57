/**
 * The OpenTelemetry side of ./tracing.ts, imported by it only when tracing is on. Every OpenTelemetry
 * package is imported here dynamically (type imports aside), so the production bundles, which hoist
 * static imports of npm packages to their top, load none of them while tracing is off.
 *
 * What it starts: the Node SDK with the http, express, pg and ioredis instrumentations and the OTLP
 * HTTP trace exporter (its endpoint, headers and timeout from the standard OTEL_EXPORTER_OTLP_*
 * variables), traces only (the metrics are Prometheus', @nh/server/metrics). ESM imports are hooked
 * by import-in-the-middle's loader, registered here for the instrumented modules only; that is why
 * this has to run before the program imports them (the preload, api/src/instrument.ts).
 */
import type { Context, Span, SpanKind as SpanKindEnum } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { loggablePath, loggableQuery } from './loggable-url';
import type { RecordedSpan, SpanAttributes, SpanKindName, SpanOptions, TraceParent, TracingRuntime } from './tracing';

/** Paths of the health and metrics listeners: probed every few seconds, never worth a trace. */
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(?:[/?]|$)/;

/**
 * A query's text as a span may keep it: every string literal replaced by `?`. Parameterised statements
 * carry no values anyway (and their parameters are never recorded); the hand-built multi-statement ones
 * (the checkout's, the email log's) inline addresses, names and tokens, which never leave the process,
 * as the logger never writes them either.
 */
export const withoutSqlLiterals = (text: string): string =>
  text.replace(/(?:\b[eEuU]&?)?'(?:[^']|'')*'/g, '?').replace(/\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g, '?');

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

const definedAttributes = (attributes: SpanAttributes | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries(Object.entries(attributes ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;

export async function startTracingSdk(options: { serviceName: string; spanProcessors?: readonly unknown[] }): Promise<TracingRuntime> {
  const { register } = await import('node:module');
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  // Only the modules an instrumentation hooks are intercepted (the instrumentations tell the loader).
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [api, { NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-express'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-ioredis'),
    ]);
  const instrumentations = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.test(req.url ?? ''),
      // A request span keeps its path and query as the request log does (./loggable-url.ts): an
      // unsubscribe link's token and a secret query parameter (`?token=` of an old emailed link) replaced.
      startIncomingSpanHook: (req) => {
        const url = 'url' in req ? (req.url ?? '') : '';
        const question = url.indexOf('?');
        const path = question < 0 ? url : url.slice(0, question);
        return { 'url.path': loggablePath(path), ...(question < 0 ? {} : { 'url.query': loggableQuery(url.slice(question + 1)) }) };
      },
    }),
    // A span per middleware, router and handler a request passes through. Not fewer: the route pattern the
    // request span is named after (`POST /api/payments/checkout-nonce`) is put together from the routers' spans.
    new ExpressInstrumentation(),
    // Queries and commands outside any span (the relay's polling, BullMQ's blocking reads) make no trace of their own.
    new PgInstrumentation({
      requireParentSpan: true,
      requestHook: (span, { query }) => {
        span.setAttribute('db.query.text', withoutSqlLiterals(query.text));
        if ('db.statement' in ((span as unknown as { attributes?: object }).attributes ?? {}))
          span.setAttribute('db.statement', withoutSqlLiterals(query.text));
      },
    }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
  await waitForAllMessagesAcknowledged();

  let spanProcessors = options.spanProcessors as SpanProcessor[] | undefined;
  if (!spanProcessors) {
    const [{ OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/sdk-trace-base'),
    ]);
    spanProcessors = [new BatchSpanProcessor(new OTLPTraceExporter())];
  }
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors,
    instrumentations,
    // Traces only: without these the SDK would also start OTLP metric and log exporters.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();

  const { trace, context, ROOT_CONTEXT, SpanStatusCode, SpanKind, isSpanContextValid } = api;
  const tracer = trace.getTracer('nurture-home');
  const kinds: Record<SpanKindName, SpanKindEnum> = {
    internal: SpanKind.INTERNAL,
    server: SpanKind.SERVER,
    client: SpanKind.CLIENT,
    producer: SpanKind.PRODUCER,
    consumer: SpanKind.CONSUMER,
  };

  const parse = (traceParent: TraceParent): Context => {
    const m = TRACEPARENT.exec(traceParent);
    if (!m) return ROOT_CONTEXT;
    const spanContext = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & 1, isRemote: true };
    return isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : ROOT_CONTEXT;
  };
  const parentOf = (parent: TraceParent | null | undefined): Context =>
    parent === undefined ? context.active() : parent === null ? ROOT_CONTEXT : parse(parent);
  const failed = (span: Span, error: unknown) => {
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  };

  return {
    serviceName: options.serviceName,
    traceParent() {
      const spanContext = trace.getSpanContext(context.active());
      if (!spanContext || !isSpanContextValid(spanContext)) return null;
      return `00-${spanContext.traceId}-${spanContext.spanId}-${(spanContext.traceFlags & 1).toString(16).padStart(2, '0')}`;
    },
    inSpan<T>(name: string, spanOptions: SpanOptions, fn: () => Promise<T>): Promise<T> {
      const attributes = definedAttributes(spanOptions.attributes);
      return tracer.startActiveSpan(
        name,
        { kind: kinds[spanOptions.kind ?? 'internal'], attributes },
        parentOf(spanOptions.parent),
        async (span) => {
          try {
            return await fn();
          } catch (error) {
            failed(span, error);
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
    recordSpan(name: string, recorded: RecordedSpan) {
      const attributes = definedAttributes(recorded.attributes);
      const span = tracer.startSpan(
        name,
        { kind: kinds[recorded.kind ?? 'internal'], attributes, startTime: new Date(recorded.startTime) },
        parentOf(recorded.parent),
      );
      if (recorded.error !== undefined) failed(span, recorded.error);
      span.end(new Date(recorded.endTime));
    },
    shutdown: () => sdk.shutdown(),
  };
}
