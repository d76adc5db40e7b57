import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths never written to a log line (card data, passwords, tokens, cookies). */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.cardNumber',
  '*.cardCode',
  '*.dataValue',
  '*.token',
  '*.transactionKey',
  '*.consumerSecret',
  '*.tokenSecret',
];

export function createLogger(name: string, level = 'info'): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
