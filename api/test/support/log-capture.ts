import { Writable } from 'node:stream';
import { createLogger } from '@nh/server/observability/logger';

/** A logger whose JSON lines land in `lines`, parsed, for tests that read what was logged. */
export function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger('api-test', 'info', stream) };
}
