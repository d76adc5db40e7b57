/**
 * The queue dashboard (bull-board) at /admin/queues, for owners and managers: every BullMQ queue's jobs
 * by state, with retry, promote, clean and remove. The staff session cookie signs in (a signed-out
 * visitor is sent to the back office's sign-in); each action that changes a queue is audited once it
 * has succeeded (the change is in Redis, so the audit row follows it rather than sharing a transaction).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type Request, type RequestHandler } from 'express';
import { recordAudit } from '@nh/server';
import { createQueue, QUEUE_NAMES } from '@nh/server/queues';
import type { AppContext } from '../../../context';
import { actorOf, createStaffGuard } from '../../../lib/staff-auth';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * What a bull-board API call changed, from its method and path (relative to the board), or null for a
 * read: the queue (or "all queues") and the operation as the board names it, e.g.
 * `PUT /api/queues/emails/retry/failed` → emails, "retry failed"; `PUT /api/queues/emails/42/promote`
 * → emails/42, "promote".
 */
export function queueActionOf(method: string, path: string): { entityId: string; operation: string } | null {
  if (method === 'GET' || method === 'HEAD' || !path.startsWith('/api/')) return null;
  const parts = path.split('/').slice(2).map(decodeURIComponent); // after "/api"
  if (parts[0] !== 'queues') return { entityId: 'all queues', operation: parts.join(' ') };
  if (parts.length === 2) return { entityId: 'all queues', operation: parts[1]! };
  const queue = parts[1]!;
  const rest = parts.slice(2);
  // /:queueName/:jobId/<verb> names a job; /:queueName/<verb>[/<state>] the queue.
  const named = new Set(['add', 'retry', 'promote', 'clean', 'pause', 'resume', 'concurrency', 'rate-limit', 'empty', 'obliterate', 'job-schedulers']);
  if (rest.length >= 2 && !named.has(rest[0]!)) return { entityId: `${queue}/${rest[0]}`, operation: rest.slice(1).join(' ') };
  return { entityId: queue, operation: rest.join(' ') };
}

export function queueBoardRoutes(ctx: AppContext): Router {
  const guard = createStaffGuard(ctx);
  // Built on first use: an API process whose staff never open the board opens no queue handles.
  let board: Router | null = null;
  const boardRouter = (): Router => {
    if (board) return board;
    const adapter = new ExpressAdapter();
    adapter.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: QUEUE_NAMES.map((name) => new BullMQAdapter(createQueue(name, ctx.redis, ctx.config.QUEUE_PREFIX))),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'Nurture Home queues' } },
    });
    return (board = adapter.getRouter() as Router);
  };

  /** Signed out: to the back office's sign-in (pages) or a 401 (the board's own API calls). */
  const signedIn: RequestHandler = async (req, res, next) => {
    if (await guard.current(req, res)) return next();
    if (req.method === 'GET' && req.accepts('html') && !req.path.startsWith('/api/')) {
      res.redirect(303, '/admin');
      return;
    }
    next();
  };
  const audit: RequestHandler = (req: Request, res, next) => {
    const done = queueActionOf(req.method, req.path);
    if (done) {
      const actor = actorOf(req, res);
      res.once('finish', () => {
        if (res.statusCode >= 400) return;
        recordAudit(ctx.db, actor, { action: 'queue.changed', entityType: 'queue', entityId: done.entityId, after: { operation: done.operation } }).catch((err: unknown) =>
          req.log.error({ err: (err as Error).message }, 'queue action not audited'),
        );
      });
    }
    next();
  };

  const router = Router();
  router.use(signedIn, guard.require('queues.view'), audit, (req, res, next) => boardRouter()(req, res, next));
  return router;
}
