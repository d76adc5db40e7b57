import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
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
 * `everyRequest` only sets headers and listeners and calls `next` before returning (lib/in-order.ts).
 * Should it or the sending ever fail, the request goes to `app`, which runs the layer again and answers
 * the error (the request may then be logged and counted twice: a fault that has never happened).
 */
export function aheadOfExpress(
  app: Express,
  everyRequest: RequestHandler,
  find: (req: IncomingMessage) => CachedAnswer | undefined,
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
    const { entry } = found;
    const request = req as Request;
    request.originalUrl = req.url ?? '';
    request.baseUrl = '';
    request.route = found.route;
    void everyRequest(request, res as Response, (err?: unknown) => {
      if (err === undefined || err === null) {
        try {
          sendJsonEntry(req, res, entry);
          return;
        } catch (error) {
          // A throw here would end the process (it is not inside Express): Express answers instead,
          // unless the answer has begun, which is then cut off.
          if (res.headersSent) {
            res.destroy(error instanceof Error ? error : undefined);
            return;
          }
        }
      }
      app(req, res);
    });
  };
}
