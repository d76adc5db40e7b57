/**
 * Tests of tracing: starts the SDK in the test process with an in-memory exporter (every span ends up
 * in `spans()` as soon as it ends), whatever OTEL_EXPORTER_OTLP_ENDPOINT says. Call it before anything
 * imports express, pg, ioredis or the modules that use node:http, i.e. import the code under test
 * dynamically after it (workers/test/tracing.test.ts).
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, type TracingStatus } from '../observability/tracing';

export type TestSpan = ReadableSpan;

export interface TestTracing {
  status: TracingStatus;
  /** The spans ended so far, in the order they ended. */
  spans: () => TestSpan[];
}

export async function startTestTracing(serviceName = 'nurture-home-test'): Promise<TestTracing> {
  const { InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const exporter = new InMemorySpanExporter();
  const status = await startTracing({ serviceName, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { status, spans: () => exporter.getFinishedSpans() };
}
