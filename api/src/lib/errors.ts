import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { ERROR_CODES, type ApiError, type ErrorCode, type ErrorKind } from '@nh/shared/contracts/errors';
import { loggableError, postgresErrorOf } from '@nh/server/observability/logger';

/**
 * A domain error: a stable code (the list and each code's kind are in @nh/shared/contracts/errors), a
 * message a person can act on, and details the answer carries besides (`fields`, `expected`, …).
 * Services throw it without knowing HTTP; `errorAnswer` is the one place a code becomes a status.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  'payment-refused': 402,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  'unsupported-media-type': 415,
  unprocessable: 422,
  'rate-limited': 429,
  internal: 500,
  'upstream-unknown': 502,
  unavailable: 503,
};

/** The HTTP status of a code (by its kind). */
export const statusOf = (code: ErrorCode): number => STATUS_OF_KIND[ERROR_CODES[code]];

export interface ErrorAnswer {
  status: number;
  body: ApiError;
}

/** The answer to a domain error: `{ message, code, ...details }` with the status of the code's kind. */
export function errorAnswer(error: AppError): ErrorAnswer {
  return { status: statusOf(error.code), body: { message: error.message, code: error.code, ...error.details } };
}

/** The code of a 4xx from the HTTP layer (body parser, static files, …), which carries none of ours. */
function foreignCodeOf(status: number): ErrorCode {
  if (status === 404) return 'NOT_FOUND';
  if (status === 413) return 'BODY_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

/** The one human sentence for a failed zod parse: the first problem, with its field. */
export function describeZodError(error: ZodError): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = error.issues[0];
  return { message: first?.message ?? 'Invalid request', fields };
}

export const notFoundApi: RequestHandler = (req, _res, next) => {
  next(new AppError('ROUTE_NOT_FOUND', `No API route ${req.method} ${req.originalUrl.split('?')[0]}`));
};

/** Answer to a PostgreSQL data exception (SQLSTATE class 22) that got past the contracts. */
export const UNSTORABLE_INPUT_MESSAGE =
  'Some of the information sent cannot be stored (an unusual character, or a number or text that is too long). Please check it and try again.';

/**
 * The one error mapper: every error becomes JSON `{ message, code, ...details }`. A domain error
 * (`AppError`) gets the status of its code's kind; a 4xx of the HTTP layer keeps its status and gets a
 * generic code. Unknown errors are logged with the request id and answered with a generic 500: never
 * a stack trace. Logged errors go through `loggableError`: a database error is logged by its code,
 * table and constraint, never with the values of the query.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) {
    // A client that went away mid-download (a closed tab) is not the server's error.
    const clientLeft = (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
    if (clientLeft) req.log?.info({ err: loggableError(err) }, 'client left before the response ended');
    else req.log?.error({ err: loggableError(err) }, 'error after response started');
    res.end();
    return;
  }
  const send = (status: number, body: ApiError) => res.status(status).json(body);
  if (err instanceof AppError) {
    const { status, body } = errorAnswer(err);
    send(status, body);
    return;
  }
  if (err instanceof ZodError) {
    const { message, fields } = describeZodError(err);
    send(400, { message, code: 'VALIDATION_FAILED', fields });
    return;
  }
  // Safety net behind the contracts' text and id rules: data the database cannot take is the caller's to fix.
  if (postgresErrorOf(err)?.code.startsWith('22')) {
    req.log?.warn({ err: loggableError(err) }, 'input refused by the database');
    send(400, { message: UNSTORABLE_INPUT_MESSAGE, code: 'UNSTORABLE_INPUT' });
    return;
  }
  const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 500;
  if (err?.type === 'entity.parse.failed') {
    send(400, { message: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
    return;
  }
  if (err?.type === 'entity.too.large') {
    send(413, { message: 'The request body is too large.', code: 'BODY_TOO_LARGE' });
    return;
  }
  if (status >= 400 && status < 500) {
    send(status, { message: err.expose && err.message ? err.message : 'Bad request', code: foreignCodeOf(status) });
    return;
  }
  req.log?.error({ err: loggableError(err) }, 'unhandled error');
  send(500, { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
};
