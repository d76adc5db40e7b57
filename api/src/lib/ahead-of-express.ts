import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import { loggableUrl } from '@nh/server/observability/loggable-url';
import type { Logger } from '@nh/server/observability/logger';
import { sendJsonEntry, type JsonEntry } from './json-cache';

/** An answer ready in a cache, and the Express route that would have sent it. */
export interface CachedAnswer {
  /** The route object (`router.route(path)`): the request's metric is counted under its label. */
  route: object;
  entry: JsonEntry;
}

/**
 * The server's request listener: a request `find` has a cached answer for is answered here, without
 * Express; every other request goes to `app`.
 *
 * Why: Express's own work on a request (its request and response prototypes, the router's walk)
 * costs several times a cached answer's (issue 26, docs/decisions/storefront-api.md, "The catalogue's
 * cached answers ahead of Express"). What a shopper, an operator or a proxy sees is the same either way:
 * `everyRequest` is the very layer the app runs first on every request (request id, access line and
 * metric, proxy warning, security headers), and the answer is written by the same `sendJsonEntry` the
 * route uses. The request gets the fields Express would have set by then and those hooks read
 * (`originalUrl`, `baseUrl`, `route`).
 *
 * `everyRequest` must work on Node's own request and answer (it only reads headers and the method, sets
 * headers and listeners, and calls `next` before returning: lib/in-order.ts). Its handlers are typed
 * with Express's request, so the compiler would not stop one calling an Express helper (`req.get`,
 * `res.status`, `req.ip`); `api/test/ahead-of-express.test.ts` would (the cached answers must not reach
 * Express).
 *
 * A fault never escapes this listener (outside Express it would end the process). A lookup that throws
 * leaves the request to Express. If the layer fails, or the send throws before the head is out, the
 * fault is logged and the request goes to `app`, which runs the layer again and answers the error
 * (its access line and metric are then counted twice). If the head is out, the answer is cut off.
 */
export function aheadOfExpress(
  app: Express,
  everyRequest: RequestHandler,
  find: (req: IncomingMessage) => CachedAnswer | undefined,
  log: Logger,
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    let found: CachedAnswer | undefined;
    try {
      found = find(req);
    } catch {
      // Nothing is sent yet: Express answers the request, and the route meets (and logs) the same fault.
      found = undefined;
    }
    if (!found) {
      app(req, res);
      return;
    }
    const { route, entry } = found;
    void everyRequest(req as Request, res as Response, (err?: unknown) => {
      if (err !== undefined && err !== null) {
        log.error({ err, url: loggableUrl(req.url ?? '') }, 'a cached answer could not be sent ahead of Express: Express answers it');
        app(req, res);
        return;
      }
      // What Express would have set by the time the route answers, which the answer hooks read at 'finish'.
      const request = req as Request;
      request.originalUrl = req.url ?? '';
      request.baseUrl = '';
      request.route = route;
      try {
        sendJsonEntry(req, res, entry);
      } catch (error) {
        log.error({ err: error, url: loggableUrl(req.url ?? '') }, 'a cached answer could not be sent ahead of Express');
        if (res.headersSent) {
          res.destroy(error instanceof Error ? error : undefined);
          return;
        }
        // Express answers from a clean slate: its own route, and none of the headers the send had set.
        delete (request as { route?: unknown }).route;
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        app(req, res);
      }
    });
  };
}
