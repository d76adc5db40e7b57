import { inSpan, shutdownTracing } from '../observability/tracing';
import { withNodeEnv } from './env';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/nurture_home';

export function databaseUrlFromEnv(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** A connection URL fit to print: its password (and a `password` query parameter) replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString();
  } catch {
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

/**
 * A message fit to print: any URL with credentials in it redacted, and the password of `url` wherever it
 * appears alone (a driver's error may quote the connection string or the password).
 */
export function redactSecrets(message: string, url: string): string {
  let out = message.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"]*@[^\s'"]*/gi, (found) => redactUrl(found));
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    password = '';
  }
  if (password.length >= 3) out = out.split(password).join('***');
  return out;
}

/**
 * Runs a one-shot script, printing one clear line on failure instead of a stack trace. With tracing on
 * (the release preload, ./instrument.ts), the script is the root span of a trace, its SQL statements
 * the children; the spans are flushed before the process ends.
 */
export async function runScript(name: string, body: (log: (msg: string) => void) => Promise<void>): Promise<void> {
  const log = (msg: string) => console.log(`[${name}] ${msg}`);
  try {
    // The release scripts follow the processes' NODE_ENV rule (the seed and the first owner read it).
    process.env.NODE_ENV = withNodeEnv(process.env).NODE_ENV;
    await inSpan(name, { parent: null }, () => body(log));
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const reason = err.code === 'ECONNREFUSED' ? `PostgreSQL is unreachable at DATABASE_URL (${redactUrl(databaseUrlFromEnv())})` : err.message;
    console.error(`[${name}] failed: ${redactSecrets(reason, databaseUrlFromEnv())}`);
    await shutdownTracing();
    process.exit(1);
  }
  await shutdownTracing();
}
