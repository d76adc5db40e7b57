/**
 * Tracing off by default (issue 12): without OTEL_EXPORTER_OTLP_ENDPOINT the tracing module reports
 * disabled, registers no tracer provider and loads nothing of OpenTelemetry, and the program's preload
 * patches nothing; with it, the preload starts the SDK and the instrumented modules are patched.
 */
import { describe, expect, it } from 'vitest';
import { currentTraceParent, inSpan, recordSpan, tracingEnabled, tracingOn, tracingStartupWarning, tracingStatus } from './tracing';
import { runModuleScript } from '../testing/module-script';
import { withoutSqlLiterals } from './tracing-sdk';

const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

describe('tracing off (the default)', () => {
  it('is on only with OTEL_EXPORTER_OTLP_ENDPOINT set, and not with OTEL_SDK_DISABLED=true', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingEnabled({ OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('in a process that did not start it: disabled, no tracer provider registered, every call a pass-through', async () => {
    expect(tracingStatus()).toEqual({ enabled: false, serviceName: null });
    expect(tracingOn()).toBe(false);
    expect((globalThis as Record<symbol, unknown>)[OTEL_API_GLOBAL]).toBeUndefined();
    expect(currentTraceParent()).toBeNull();
    await expect(inSpan('job', { parent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }, async () => 42)).resolves.toBe(42);
    recordSpan('outbox relay', { startTime: Date.now(), endTime: Date.now() });
    expect(tracingStartupWarning('./api/dist/instrument.js', {})).toBeNull();
    expect(tracingStartupWarning('./api/dist/instrument.js', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toMatch(
      /--import \.\/api\/dist\/instrument\.js/,
    );
  });

  /** Runs the API's preload in a fresh node process, then imports what the API imports and says what it sees. */
  async function probe(env: Record<string, string>) {
    const script = `
      import { createRequire } from 'node:module';
      import http from 'node:http';
      import express from 'express';
      import pg from 'pg';
      import { Redis } from 'ioredis';
      import { tracingStatus } from '@nh/server/observability/tracing';
      const wrapped = (fn) => Boolean(fn.__wrapped);
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => /[\\\\/](@opentelemetry|import-in-the-middle|require-in-the-middle)[\\\\/]/.test(f));
      console.log(JSON.stringify({
        status: tracingStatus(),
        apiGlobal: Boolean(globalThis[Symbol.for('opentelemetry.js.api.1')]),
        otelModulesLoaded: loaded.length,
        patched: { http: wrapped(http.request), pg: wrapped(pg.Client.prototype.query), ioredis: wrapped(Redis.prototype.sendCommand), express: typeof express === 'function' },
      }));
      process.exit(0);`;
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
    const { code, stdout, stderr } = await runModuleScript(script, { preloads: ['./api/src/instrument.ts'], env: { ...clean, ...env } });
    if (code !== 0) throw new Error(`probe exited ${code}: ${stderr}`);
    return JSON.parse(stdout.trim().split('\n').pop()!) as {
      status: { enabled: boolean; serviceName: string | null };
      apiGlobal: boolean;
      otelModulesLoaded: number;
      patched: Record<string, boolean>;
    };
  }

  it('the preload without OTEL_EXPORTER_OTLP_ENDPOINT loads no OpenTelemetry module and patches nothing', async () => {
    expect(await probe({})).toEqual({
      status: { enabled: false, serviceName: null },
      apiGlobal: false,
      otelModulesLoaded: 0,
      patched: { http: false, pg: false, ioredis: false, express: true },
    });
  });

  it('the preload with OTEL_EXPORTER_OTLP_ENDPOINT starts the SDK before the program imports what it instruments (OTEL_SERVICE_NAME honoured)', async () => {
    // Nothing is exported: the probe ends no span.
    const seen = await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SERVICE_NAME: 'shop-api-canary' });
    expect(seen.status).toEqual({ enabled: true, serviceName: 'shop-api-canary' });
    expect(seen.apiGlobal).toBe(true);
    expect(seen.otelModulesLoaded).toBeGreaterThan(0);
    expect(seen.patched).toEqual({ http: true, pg: true, ioredis: true, express: true });
  });
});

describe('what a span may keep', () => {
  it('a query text without its string literals (hand-built statements inline addresses, names and tokens)', () => {
    expect(
      withoutSqlLiterals(
        `insert into email_log (kind, to_address) values ('order-confirmation', 'ann@example.com') on conflict do nothing`,
      ),
    ).toBe('insert into email_log (kind, to_address) values (?, ?) on conflict do nothing');
    expect(withoutSqlLiterals(`select '{"a":"O''Brien"}'::jsonb, E'x\\n', $1::uuid, $tag$secret$tag$`)).toBe(
      'select ?::jsonb, ?, $1::uuid, ?',
    );
    expect(withoutSqlLiterals('select id from orders where id = $1')).toBe('select id from orders where id = $1');
  });
});
