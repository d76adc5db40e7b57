import type { RequestHandler } from 'express';

/**
 * Several synchronous app-wide middleware as one layer of the app's router. Every layer of Express's
 * router costs a match and bookkeeping on every request, which for the small middleware that run on
 * every request (request id, metrics, security headers) costs more than their own work; and a
 * per-request `next` closure for each of them would cost about as much again.
 *
 * Each handler must call `next()` (or `next(err)`) before it returns: the handlers here set headers and
 * listeners, they never wait. One that does not is a programming error, answered as an error (500) so
 * that tests find it. An error (a throw or `next(err)`) goes to the app's error handling, as from its
 * own layer.
 */
export function inOrder(...handlers: RequestHandler[]): RequestHandler {
  // Shared by every request: each handler calls `done` synchronously, so no two requests interleave here.
  let called = false;
  let failure: unknown;
  const done = (err?: unknown) => {
    called = true;
    failure = err;
  };
  return (req, res, next) => {
    for (const handler of handlers) {
      called = false;
      failure = undefined;
      try {
        void handler(req, res, done);
      } catch (error) {
        next(error);
        return;
      }
      if (!called) {
        next(new Error(`inOrder: the middleware ${handler.name || '(anonymous)'} did not call next() before returning`));
        return;
      }
      if (failure !== undefined && failure !== null) {
        next(failure);
        return;
      }
    }
    next();
  };
}
