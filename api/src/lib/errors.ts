import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { loggableError, postgresErrorOf } from '@nh/server';

/** An error with an HTTP status and a message a person can act on. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new HttpError(400, message, details);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Not allowed') => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, details?: Record<string, unknown>) => new HttpError(409, message, details);
export const unprocessable = (message: string, details?: Record<string, unknown>) => new HttpError(422, message, details);
export const tooManyRequests = (message: string) => new HttpError(429, message);
export const serviceUnavailable = (message: string) => new HttpError(503, message);

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
  next(notFound(`No API route ${req.method} ${req.originalUrl.split("?")[0]}`));
};

/** Answer to a PostgreSQL data exception (SQLSTATE class 22) that got past the contracts. */
export const UNSTORABLE_INPUT_MESSAGE =
  'Some of the information sent cannot be stored (an unusual character, or a number or text that is too long). Please check it and try again.';

/**
 * Maps every error to JSON `{ message, ...details }`. Unknown errors are logged with the request id and
 * answered with a generic 500: never a stack trace. Logged errors go through `loggableError`: a
 * database error is logged by its code, table and constraint, never with the values of the query.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) {
    req.log?.error({ err: loggableError(err) }, 'error after response started');
    res.end();
    return;
  }
  if (err instanceof HttpError) {
    res.status(err.status).json({ message: err.message, ...err.details });
    return;
  }
  if (err instanceof ZodError) {
    const { message, fields } = describeZodError(err);
    res.status(400).json({ message, fields });
    return;
  }
  // Safety net behind the contracts' text and id rules: data the database cannot take is the caller's to fix.
  if (postgresErrorOf(err)?.code.startsWith('22')) {
    req.log?.warn({ err: loggableError(err) }, 'input refused by the database');
    res.status(400).json({ message: UNSTORABLE_INPUT_MESSAGE });
    return;
  }
  const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 500;
  if (err?.type === 'entity.parse.failed') {
    res.status(400).json({ message: 'The request body is not valid JSON.' });
    return;
  }
  if (err?.type === 'entity.too.large') {
    res.status(413).json({ message: 'The request body is too large.' });
    return;
  }
  if (status >= 400 && status < 500) {
    res.status(status).json({ message: err.expose && err.message ? err.message : 'Bad request' });
    return;
  }
  req.log?.error({ err: loggableError(err) }, 'unhandled error');
  res.status(500).json({ message: 'Something went wrong on our side. Please try again.' });
};
