import { AsyncLocalStorage } from 'node:async_hooks';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { pino, type DestinationStream, type Logger } from 'pino';
import { currentTraceParent, tracingOn } from './tracing';

export type { Logger };

/** Keys whose values never reach a log line: passwords and their hashes, tokens, card data, credentials, cookies. */
const SECRET_KEYS = [
  'password',
  'passwordHash',
  'password_hash',
  'token',
  'dataValue',
  'cardNumber',
  'cardCode',
  'transactionKey',
  'consumerSecret',
  'tokenSecret',
  'cookie',
  'authorization',
  '["set-cookie"]',
];

/** The redact paths: each key at the top level and one or two levels down (e.g. `req.headers.cookie`). */
export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const dot = key.startsWith('[') ? '' : '.';
  return [key, `*${dot}${key}`, `*.*${dot}${key}`];
});

/** What a log line may say about a PostgreSQL error: where it happened, never the values involved. */
export interface PostgresErrorFields {
  code: string;
  severity?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
  dataType?: string;
  routine?: string;
}

const causes = (error: unknown): object[] => {
  const chain: object[] = [];
  for (let e = error; e && typeof e === 'object' && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
};

/** The PostgreSQL error (pg's DatabaseError) behind `error`; drizzle wraps it in `cause`. */
export function postgresErrorOf(error: unknown): PostgresErrorFields | undefined {
  const found = causes(error).find((e) => {
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
  }) as PostgresErrorFields | undefined;
  if (!found) return undefined;
  const { code, severity, schema, table, column, constraint, dataType, routine } = found;
  return { code, severity, schema, table, column, constraint, dataType, routine };
}

/**
 * The `err` of a log line. A database error's message, `detail`, query text and parameters carry the
 * values of the row (an email, a password hash, a card token), so it is logged by code and place only,
 * with its stack frames; any other error as pino logs it.
 */
export function loggableError(error: unknown): unknown {
  // Drizzle's message ("Failed query: … params: …") already passed as text by a caller.
  if (typeof error === 'string') return error.startsWith('Failed query:') ? 'database query failed (details withheld from the log)' : error;
  if (!(error instanceof Error)) return error;
  const chain = causes(error);
  const pgError = postgresErrorOf(error);
  if (!pgError && !chain.some((e) => e instanceof DrizzleQueryError)) return pino.stdSerializers.err(error);
  const code = pgError?.code ?? chain.map((e) => (e as { code?: unknown }).code).find((c) => typeof c === 'string');
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  return { type: 'DatabaseError', message: 'database query failed', ...pgError, code, stack: frames.join('\n') };
}

const logFields = new AsyncLocalStorage<Readonly<Record<string, unknown>>>();
const NO_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Runs `fn` with `fields` on every line any logger of the process writes meanwhile, child loggers
 * included (a worker job's request id: workers/src/jobs/define.ts). A field the log call names itself wins.
 */
export function withLogFields<T>(fields: Readonly<Record<string, unknown>>, fn: () => T): T {
  return logFields.run(fields, fn);
}

/**
 * The fields a line gets from its context: those of `withLogFields`, and while tracing is on and a span
 * is active, `trace_id` and `span_id` (OpenTelemetry's names for log correlation: a line found in the
 * logs opens its trace, and a trace's spans find their lines). Tracing off: one check, nothing added.
 */
function contextFields(): Readonly<Record<string, unknown>> {
  const fields = logFields.getStore() ?? NO_FIELDS;
  const traceParent = tracingOn() ? currentTraceParent() : null;
  if (!traceParent) return fields;
  const [, traceId, spanId] = traceParent.split('-');
  return { ...fields, trace_id: traceId, span_id: spanId };
}

/** The process logger: JSON lines, secrets redacted, errors through `loggableError`. `destination` defaults to stdout. */
export function createLogger(name: string, level = 'info', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: loggableError },
    // The context's fields, when there are any (pino's own merge would write into the object it is given).
    mixin: contextFields,
    mixinMergeStrategy: (mergeObject: object, mixinObject: object) => (mixinObject === NO_FIELDS ? mergeObject : { ...mixinObject, ...mergeObject }),
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The kind of destination `createLogger` writes to by default (pino's SonicBoom: asynchronous writes of
 * the lines gathered meanwhile), on the file at `path` instead of stdout (a benchmark's /dev/null).
 */
export function logFile(path: string): DestinationStream {
  return pino.destination({ dest: path, sync: false });
}
