import { inSpan, shutdownTracing } from '../observability/tracing';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/nurture_home';

export function databaseUrlFromEnv(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/**
 * Runs a one-shot script, printing one clear line on failure instead of a stack trace. With tracing on
 * (the release preload, ./instrument.ts), the script is the root span of a trace, its SQL statements
 * the children; the spans are flushed before the process ends.
 */
export async function runScript(name: string, body: (log: (msg: string) => void) => Promise<void>): Promise<void> {
  const log = (msg: string) => console.log(`[${name}] ${msg}`);
  try {
    await inSpan(name, { parent: null }, () => body(log));
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const reason = err.code === 'ECONNREFUSED' ? `PostgreSQL is unreachable at DATABASE_URL (${databaseUrlFromEnv()})` : err.message;
    console.error(`[${name}] failed: ${reason}`);
    await shutdownTracing();
    process.exit(1);
  }
  await shutdownTracing();
}
