import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener, type Server } from 'node:http';
import { inject } from 'vitest';
import '@nh/server/testing/provided';
import type { Express } from 'express';
import { createDb, createReadDb } from '@nh/server/db/client';
import { createLogger, type Logger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/lib/config';
import type { AppContext } from '../../src/lib/context';
import { createAppServices, type AppServices } from '../../src/modules';
import type { Payments } from '../../src/modules/payments/provider';

export interface TestApi {
  url: string;
  ctx: AppContext;
  /** The app's payment gateway (e.g. the local sandbox, whose charges a test may read). */
  payments: Payments;
  /** Everything the composition root made for the app (payments, lifecycle, metrics registry). */
  services: AppServices;
  /** The Express app under test (its router stack lists every route). */
  app: Express;
  /** The server's request listener: the app, with cached catalogue answers sent ahead of it. */
  listener: RequestListener;
  /** fetch against the test API; JSON bodies are serialised and sent with a JSON content type. */
  request: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
  close: () => Promise<void>;
}

/**
 * Starts the real API (real Postgres test database, real Redis) on a free port. `options.log` replaces
 * the (silent) logger, e.g. one writing to a stream the test reads; `options.services` replaces some of
 * the composition root's services (e.g. a tax calculator of the test's own).
 */
export async function startTestApi(env: Record<string, string> = {}, options: { log?: Logger; services?: Partial<AppServices> } = {}): Promise<TestApi> {
  const config = loadApiConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: inject('queuePrefix'),
    PORT: '0',
    // The card-testing guard counts declines per client address, and every test's requests come from
    // 127.0.0.1: on by default, declines in one test would stop the next one's checkouts. The guard's
    // own tests turn it on in an API of their own. (Its per-account and per-plan budgets stay on.)
    PAYMENT_FAILURES_PER_15_MIN: '0',
    // The abuse limits count in Redis across processes; each test API gets budgets of its own unless a
    // test shares a prefix on purpose (several API processes behind one limit).
    RATE_LIMIT_PREFIX: `rl-${randomUUID().slice(0, 8)}`,
    ...env,
  });
  const db = createDb({ url: config.DATABASE_URL, max: 10, pooled: config.DATABASE_POOLED });
  const readDb = createReadDb(config, db, { max: 5, applicationName: 'nurture-home-api-test-reads' });
  const redis = createRedis(config);
  const ctx: AppContext = { config, db, readDb, redis, log: options.log ?? createLogger('api-test', config.LOG_LEVEL) };
  const services: AppServices = { ...createAppServices(ctx), ...options.services };
  const { app, listener } = createApp(ctx, services);
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ctx,
    payments: services.payments,
    services,
    app,
    listener,
    request: (path, init = {}) =>
      fetch(url + path, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: init.body === undefined ? init.headers : { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.afterAnswer.settled();
      await Promise.allSettled([db.$client.end(), readDb === db ? null : readDb.$client.end(), redis.quit()]);
    },
  };
}
