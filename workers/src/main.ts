// Worker process (Procfile `worker`): the outbox relay and the consumers of WORKER_QUEUES.
import { createLogger, exitOnStartupError } from '@nh/shared/server';
import { loadWorkerConfig } from './config';
import { startWorkerRuntime } from './runtime';

async function start(): Promise<void> {
  const config = loadWorkerConfig();
  const log = createLogger('workers', config.LOG_LEVEL);
  const runtime = await startWorkerRuntime(config, log);

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
    await runtime.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

start().catch((error) => exitOnStartupError('workers', error));
