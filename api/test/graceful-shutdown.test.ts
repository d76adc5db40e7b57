/**
 * Deploys without errors (issue 24): on SIGTERM the API answers readiness 503 first, keeps serving for
 * SHUTDOWN_DELAY_MS (so the load balancer's probe notices before connections are refused), then closes
 * its listener; requests in flight finish. Tested on `listenApi`'s drain and on the real process
 * (api/src/main.ts under tsx) receiving SIGTERM.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadApiConfig, REPO_ROOT } from '../src/lib/config';
import { listenApi } from '../src/server';
import { startTestApi, type TestApi } from './support/harness';
import { freePort } from '@nh/server/testing/free-port';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('SHUTDOWN_DELAY_MS', () => {
  it('defaults to 5 s in production and 0 elsewhere; can be set', () => {
    const base = { SESSION_SECRET: 's'.repeat(32), SIGN_IN_CODE_PEPPER: 'p'.repeat(32), SHOP_SITE_URL: 'https://shop.example.com' };
    expect(loadApiConfig({ ...base, NODE_ENV: 'production' }).SHUTDOWN_DELAY_MS).toBe(5000);
    expect(loadApiConfig({ ...base, NODE_ENV: 'test' }).SHUTDOWN_DELAY_MS).toBe(0);
    expect(loadApiConfig({ ...base, NODE_ENV: 'production', SHUTDOWN_DELAY_MS: '12000' }).SHUTDOWN_DELAY_MS).toBe(12_000);
  });
});

describe('drain with a delay', () => {
  it('503 at once, still serving (Connection: close) during the delay, then the port closes; the request in flight finishes', async () => {
    // The real app behind one slow route of the test's own: the in-flight request.
    const app = express();
    app.get('/slow', (_req, res) => void sleep(1500).then(() => res.json({ done: true })));
    app.use(api.app);
    const config = { ...api.ctx.config, PORT: 0, HOST: '127.0.0.1', METRICS_PORT: 0, SHUTDOWN_DELAY_MS: 800 };
    // The app's /readyz reads api.services.lifecycle, the one drain() sets.
    const served = await listenApi({ ...api.ctx, config }, api.services, app);
    const base = `http://127.0.0.1:${served.port}`;
    try {
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const inFlight = fetch(`${base}/slow`);
      await sleep(100);
      const started = Date.now();
      const drained = served.drain();

      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { status: string }).status).toBe('draining');
      expect((await fetch(`${served.metrics!.url}/readyz`)).status).toBe(503);
      // A request the load balancer still sends during the delay is served, and told to reconnect elsewhere.
      const late = await fetch(`${base}/healthz`);
      expect(late.status).toBe(200);
      expect(late.headers.get('connection')).toBe('close');
      expect(Date.now() - started).toBeLessThan(800);

      await sleep(800 - (Date.now() - started) + 150);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(await answered.json()).toEqual({ done: true });
      await drained;
    } finally {
      await served.drain(0);
      await served.close();
      api.services.lifecycle.draining = false;
    }
  });
});


describe('the API process on SIGTERM', () => {
  it('answers /readyz 503 while still serving for SHUTDOWN_DELAY_MS, then stops taking connections and exits 0', { timeout: 90_000 }, async () => {
    const port = await freePort();
    // Node itself with tsx's loader, not the tsx wrapper: the SIGTERM reaches the API process, not a relay.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'api/src/main.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: inject('databaseUrl'),
        REDIS_URL: inject('redisUrl'),
        QUEUE_PREFIX: inject('queuePrefix'),
        SHUTDOWN_DELAY_MS: '1500',
        METRICS_PORT: '',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 60_000;
      while (!output.includes('API listening')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the API did not start:\n${output}`);
        await sleep(200);
      }
      expect((await fetch(`${base}/readyz`)).status).toBe(200);

      child.kill('SIGTERM');
      await sleep(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);

      await sleep(1800);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
      expect(await exited).toBe(0);
      expect(output).toContain('shutting down');
    } catch (error) {
      // What the API printed tells why it stopped answering.
      throw new Error(`${(error as Error).message}\nthe API's output:\n${output}`, { cause: error });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
