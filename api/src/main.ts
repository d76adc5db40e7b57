// Tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set, was started by the preload (./instrument.ts, `node --import`) before these imports.
import { configureShop } from '@nh/shared';
import { createDb, createReadDb } from '@nh/server/db/client';
import { createLogger } from '@nh/server/observability/logger';
import { assertRedisVersion, createRedis } from '@nh/server/runtime/redis';
import { exitOnStartupError, shopOverrides } from '@nh/server/runtime/env';
import { productionWarnings } from '@nh/server/runtime/startup-warnings';
import { pingDatabase } from '@nh/server/queries/health';
import { reloadTaxRatesOnSignal } from '@nh/server/tax';
import { shutdownTracing, tracingStartupWarning, tracingStatus } from '@nh/server/observability/tracing';
import { createApp } from './app';
import { loadApiConfig } from './lib/config';
import type { AppContext } from './lib/context';
import { createAppServices } from './modules';
import { preloadServerRender } from './modules/seo/server-render';
import { listenApi } from './server';

async function start(): Promise<void> {
  const config = loadApiConfig();
  configureShop(shopOverrides(config));
  const log = createLogger('api', config.LOG_LEVEL);
  const db = createDb({ url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX ?? 20, pooled: config.DATABASE_POOLED, applicationName: 'nurture-home-api' });
  // Reads that may lag (catalogue, pages, admin lists, reports) go to the replica when there is one.
  const readDb = createReadDb(config, db, { max: 20, applicationName: 'nurture-home-api-reads' });
  await Promise.all([...new Set([db, readDb])].map((pool) => pingDatabase(pool)));
  const redis = createRedis(config);
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection problem'));
  await assertRedisVersion(redis);

  const ctx: AppContext = { config, db, readDb, redis, log };
  const services = createAppServices(ctx);
  // `kill -HUP` re-reads TAX_RATES_FILE (table and taxjar modes; docs/decisions/tax-and-shipping.md).
  reloadTaxRatesOnSignal(services.tax, log);
  for (const warning of productionWarnings({ production: config.isProduction, paymentsConfigured: services.payments.gateway !== null })) {
    log.warn(warning);
  }
  const tracingWarning = tracingStartupWarning('./api/dist/instrument.js');
  if (tracingWarning) log.warn(tracingWarning);
  await preloadServerRender(config.WEB_DIST, log);
  const { listener } = createApp(ctx, services);
  const served = await listenApi(ctx, services, listener);
  log.info(
    { port: served.port, metricsPort: served.metrics?.port ?? 'not set', tracing: tracingStatus().serviceName ?? 'off' },
    `API listening on http://localhost:${served.port}`,
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(
      { signal, delayMs: config.SHUTDOWN_DELAY_MS, graceMs: config.SHUTDOWN_GRACE_MS },
      'shutting down: /readyz answers 503 (draining); still serving until the delay passes, then finishing in-flight requests',
    );
    const force = setTimeout(() => {
      log.warn(`in-flight requests did not finish in ${config.SHUTDOWN_GRACE_MS} ms after the delay; exiting`);
      process.exit(1);
    }, config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_GRACE_MS);
    force.unref();
    // The draining flag is set before the server closes (listenApi's drain).
    void served.drain().then(async () => {
      // shutdownTracing: the spans of the last requests, before the process ends.
      await Promise.allSettled([db.$client.end(), readDb === db ? null : readDb.$client.end(), redis.quit(), served.close(), shutdownTracing()]);
      log.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

start().catch((error) => exitOnStartupError('api', error));
