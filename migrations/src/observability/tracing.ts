/**
 * OpenTelemetry tracing, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (docs/decisions/observability.md,
 * "Traces"). This module is what the rest of the code imports, and it imports nothing of OpenTelemetry:
 * with tracing off no SDK, no API and no instrumentation is ever loaded, `currentTraceParent()` is null
 * and `inSpan` just calls its function.
 *
 * `startTracing` (run by each program's preload, api/src/instrument.ts and workers/src/instrument.ts,
 * before the program's own modules load) loads the SDK (./tracing-sdk.ts, by dynamic import) when the
 * variable is set. The state lives on `globalThis`, not in this module: in the production bundles the
 * preload and the program are two files, each with its own copy of this module.
 */

/** W3C trace context `traceparent` of a span: `00-<trace id>-<span id>-<flags>`. */
export type TraceParent = string;

export type SpanKindName = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface SpanOptions {
  kind?: SpanKindName;
  attributes?: SpanAttributes;
  /**
   * The parent: a `traceparent` (e.g. one stored with an outbox row); `null` for the root of a new trace;
   * absent for the span active where `inSpan` is called. A malformed `traceparent` starts a new trace.
   */
  parent?: TraceParent | null;
}

/** A finished span recorded after the fact (`recordSpan`): the relay's per-row span. */
export interface RecordedSpan extends SpanOptions {
  /** Epoch milliseconds. */
  startTime: number;
  /** Epoch milliseconds. */
  endTime: number;
  error?: unknown;
}

/** What the SDK side provides once started (./tracing-sdk.ts). */
export interface TracingRuntime {
  readonly serviceName: string;
  traceParent(): TraceParent | null;
  inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T>;
  recordSpan(name: string, span: RecordedSpan): void;
  /** Ends the SDK: flushes the spans not yet exported. */
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  /** `service.name` unless `OTEL_SERVICE_NAME` says otherwise. */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Tests: start with these span processors (e.g. an InMemorySpanExporter's) instead of the OTLP
   * exporter, whatever the environment says.
   */
  spanProcessors?: readonly unknown[];
}

export interface TracingStatus {
  enabled: boolean;
  /** The `service.name` traces are reported under, when enabled. */
  serviceName: string | null;
}

const STATE = Symbol.for('nurture-home.tracing');
type Holder = { [STATE]?: TracingRuntime };
const holder = globalThis as Holder;

const runtime = (): TracingRuntime | undefined => holder[STATE];

/**
 * Tracing is on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (not blank) and `OTEL_SDK_DISABLED` is not
 * `true`. Nothing else turns it on.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

/**
 * Starts the OpenTelemetry Node SDK when tracing is enabled (or span processors are given), once per
 * process: a second call answers the status of the first. Must run before express, pg, ioredis and
 * node:http are imported, so their instrumentation can patch them: each program's preload does it.
 */
export async function startTracing(options: StartTracingOptions): Promise<TracingStatus> {
  const env = options.env ?? process.env;
  if (!runtime() && (options.spanProcessors || tracingEnabled(env))) {
    const { startTracingSdk } = await import('./tracing-sdk');
    holder[STATE] ??= await startTracingSdk({
      serviceName: env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
      spanProcessors: options.spanProcessors,
    });
  }
  return tracingStatus();
}

export function tracingStatus(): TracingStatus {
  const started = runtime();
  return { enabled: Boolean(started), serviceName: started?.serviceName ?? null };
}

/**
 * What a program's start-up says about tracing: null when it runs as configured; a warning when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set but the SDK was not started (the process was started without its
 * preload, `preload`), so no trace will come.
 */
export function tracingStartupWarning(preload: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!tracingEnabled(env) || tracingOn()) return null;
  return `OTEL_EXPORTER_OTLP_ENDPOINT is set but tracing did not start: run the process with node --import ${preload} (README, Environment)`;
}

/** Flushes and ends the SDK (on shutdown, before the process exits); nothing when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  const started = runtime();
  if (!started) return;
  delete holder[STATE];
  await started.shutdown();
}

/** Whether tracing runs in this process: a cheap check before building a span's attributes. */
export const tracingOn = (): boolean => runtime() !== undefined;

/** The `traceparent` of the span active now (null when tracing is off or no span is active). */
export const currentTraceParent = (): TraceParent | null => runtime()?.traceParent() ?? null;

/** Runs `fn` inside a new span (active for everything `fn` starts); just `fn()` when tracing is off. */
export function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  const started = runtime();
  return started ? started.inSpan(name, options, fn) : fn();
}

/** Records a span that has already happened (nothing when tracing is off). */
export function recordSpan(name: string, span: RecordedSpan): void {
  runtime()?.recordSpan(name, span);
}
