import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler } from 'express';
import { loggableUrl } from '@nh/server/observability/loggable-url';
import type { Logger } from '@nh/server/observability/logger';
import { runWithRequestId } from '@nh/server/observability/request-context';
import type { AnswerHook } from './when-answered';

declare module 'express-serve-static-core' {
  interface Request {
    /** Request id: the caller's `x-request-id` (a proxy's id), or a new UUID; echoed in the response header. */
    id: string;
    /** Logger whose every line carries this request's id (created on first use). */
    log: Logger;
  }
}

const QUIET_PATHS = new Set(['/healthz', '/readyz']);

const childLogger = Symbol('childLogger');
type LoggedRequest = Request & { [childLogger]?: Logger };

/**
 * A caller's request id is kept (logs, outbox rows, jobs, audit rows) only when it looks like one: up
 * to 128 letters, digits and `. _ : = @ / + -` (UUIDs, hex ids, AWS's `Root=1-…`). Anything else (spaces,
 * quotes, markup, a formula) gets a new UUID instead of travelling into every record of the request.
 */
const CALLER_REQUEST_ID = /^[\w.:=@/+-]{1,128}$/;

/**
 * Each request's id (`req.id`, echoed in `x-request-id`) and a per-request child logger for handlers
 * (`req.log`). The child is made lazily, by a getter installed once on the app's request prototype:
 * most requests never log anything themselves, and making a child logger (with redaction) on every
 * request costs more than the catalogue answer it accompanies.
 */
export function requestId(app: Express, logger: Logger): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: LoggedRequest) {
      return (this[childLogger] ??= logger.child({ reqId: this.id }));
    },
  });
  return (req, res, next) => {
    const header = req.headers['x-request-id'];
    const id = typeof header === 'string' && CALLER_REQUEST_ID.test(header) ? header : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    next();
  };
}

/**
 * One JSON line per answered request (method, URL, status, duration) with its request id, but for the
 * health probes (`whenAnswered` runs it). The URL is logged without its secrets (`loggableUrl` of
 * @nh/server: a `?token=` of an old emailed link, an unsubscribe link's token).
 */
export function accessLine(logger: Logger): AnswerHook {
  // The line's fields are fixed (the id as checked above, method, the URL without its secrets, status,
  // duration): none is a secret key, so it skips the process logger's redaction, whose wildcard paths
  // (`*.password`, …) otherwise run on each of its values and cost more than the rest of a cached
  // catalogue answer. Same stream, level, name and context fields (mixin) as the logger.
  const accessLog = logger.child({}, { redact: { paths: [], censor: '[redacted]' } });
  return (req, res, ms) => {
    const status = res.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!accessLog.isLevelEnabled(level)) return;
    const url = req.originalUrl;
    const query = url.indexOf('?');
    if (QUIET_PATHS.has(query < 0 ? url : url.slice(0, query))) return;
    accessLog[level]({ reqId: req.id, method: req.method, url: loggableUrl(url), status, ms: Math.round(ms * 10) / 10 }, 'request completed');
  };
}

/**
 * Runs the rest of the request as the work of its request id (AsyncLocalStorage, @nh/server
 * request-context.ts): every outbox row the request writes remembers it, whichever module writes it.
 * Mounted right before the API modules, after body parsing and sessions (whose callbacks would not
 * keep the context).
 */
export const requestContext: RequestHandler = (req, _res, next) => runWithRequestId(req.id, next);
