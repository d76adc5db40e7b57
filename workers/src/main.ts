// Worker process (Procfile `worker`): the outbox relay and the consumers of WORKER_QUEUES.
// Tracing, when OTEL_EXPORTER_OTLP_ENDPOINT is set, was started by the preload (./instrument.ts, `node --import`) before these imports.
import { createLogger } from '@nh/server/observability/logger';
import { exitOnStartupError } from '@nh/server/runtime/env';
import { productionWarnings } from '@nh/server/runtime/startup-warnings';
import { reloadTaxRatesOnSignal } from '@nh/server/tax';
import { shutdownTracing, tracingStartupWarning, tracingStatus } from '@nh/server/observability/tracing';
import { loadWorkerConfig } from './lib/config';
import { lowerCpuPriority } from './lib/cpu-priority';
import { runtimeHealthy, startHeartbeat } from './heartbeat';
import { startWorkerRuntime } from './runtime';

async function start(): Promise<void> {
  const config = loadWorkerConfig();
  const log = createLogger('workers', config.LOG_LEVEL);
  // Before the runtime starts its connections and threads (later threads inherit the value).
  const priority = lowerCpuPriority(config.WORKER_NICE);
  if (priority.failed.length) log.warn({ wanted: config.WORKER_NICE, nice: priority.nice, failed: priority.failed }, 'WORKER_NICE: some threads keep their CPU priority');
  else log.info({ nice: priority.nice }, 'CPU priority set (WORKER_NICE)');
  const runtime = await startWorkerRuntime(config, log);
  // `kill -HUP` re-reads TAX_RATES_FILE (table and taxjar modes; docs/decisions/tax-and-shipping.md).
  reloadTaxRatesOnSignal(runtime.tax, log);
  const facts = {
    production: config.NODE_ENV === 'production',
    paymentsConfigured: runtime.gateway !== null,
    mailToFileOutbox: !config.SMTP_URL,
  };
  for (const warning of productionWarnings(facts)) log.warn(warning);
  const tracingWarning = tracingStartupWarning('./workers/dist/instrument.js');
  if (tracingWarning) log.warn(tracingWarning);
  else if (tracingStatus().enabled) log.info({ serviceName: tracingStatus().serviceName }, 'tracing on (OpenTelemetry, OTLP over HTTP)');
  const stopHeartbeat = startHeartbeat({
    file: config.HEARTBEAT_FILE,
    intervalMs: config.HEARTBEAT_INTERVAL_MS,
    healthy: () => runtimeHealthy(runtime),
    log,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down: no new jobs; finishing running ones');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 10_000);
    force.unref();
    stopHeartbeat();
    await runtime.close();
    // The spans of the last jobs, before the process ends.
    await shutdownTracing().catch((err: unknown) => log.warn({ err }, 'tracing: spans not flushed'));
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

start().catch((error) => exitOnStartupError('workers', error));
