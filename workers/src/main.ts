// Worker process: placeholder until the workers issue lands (outbox relay and queue processors).
import { createLogger, exitOnStartupError } from '@nh/shared/server';

try {
  const log = createLogger('workers', process.env.LOG_LEVEL ?? 'info');
  log.info('worker process started (no queues registered yet)');
  const keepAlive = setInterval(() => {}, 60_000);
  const stop = () => {
    clearInterval(keepAlive);
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  exitOnStartupError('workers', error);
}
