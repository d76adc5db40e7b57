import type { Request, RequestHandler, Response } from 'express';

/** Work done once a request's answer has been sent: given the request, its answer and the milliseconds it took. */
export type AnswerHook = (req: Request, res: Response, ms: number) => void;

/**
 * Runs `hooks` when each request's answer has been sent (the response's 'finish'), timed from this
 * middleware. One timer and one listener per request serve every hook (the access line, the request
 * metrics): a listener and a closure each would cost more than the hooks' own work on the catalogue
 * path (issue 26), and the log line and the metric now agree on the duration.
 */
export function whenAnswered(...hooks: AnswerHook[]): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    // 'finish' comes once per response: `on` spares `once`'s wrapper.
    res.on('finish', () => {
      const ms = performance.now() - started;
      for (const hook of hooks) hook(req, res, ms);
    });
    next();
  };
}
