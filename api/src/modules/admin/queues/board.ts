/**
 * The queue dashboard (bull-board) at /admin/queues: every BullMQ queue's jobs by state. The staff
 * session cookie signs in (a signed-out visitor is sent to the back office's sign-in; a role without
 * the board gets a page saying so, with the way back). Owners and managers see it (`queues.view`);
 * only owners change queues (`queues.manage`: retry, promote, clean, remove, pause …), so a manager
 * gets a read-only board, whose page offers no buttons that would be refused, and every change is
 * refused for them here as well. Nobody adds jobs or edits a job's data by hand: jobs come from the
 * outbox, and the board only shows their data redacted (./redact.ts). Each change is audited once it
 * has succeeded (the change is in Redis, so the audit row follows it rather than sharing a transaction).
 * The page and everything it loads come from the shop, under a Content-Security-Policy of 'self' only.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import type { AppViewRoute } from '@bull-board/api/typings/app';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { recordAudit } from '@nh/server/queries/audit';
import { createQueue, QUEUE_NAMES } from '@nh/server/runtime/queues';
import { QUEUE_BOARD_MESSAGES } from '@nh/shared/contracts/queue-board';
import { can, STAFF_MESSAGES, type StaffRole } from '@nh/shared/contracts/staff';
import type { AppContext } from '../../../lib/context';
import { AppError, errorAnswer } from '../../../lib/errors';
import { selfOnlyContentSecurityPolicy } from '../../../lib/security-headers';
import { actorOf, createStaffGuard, staffOf } from '../../../lib/staff-auth';
import {
  BOARD_CSS,
  BOARD_STYLESHEET,
  readBoardBundle,
  renderBoardPage,
  renderNoAccessPage,
  type BoardBundle,
  type BoardPageParams,
} from './pages';
import { redactBoardAnswer, redactPayload } from './redact';

export const QUEUE_BOARD_PATH = '/admin/queues';
const SHOP_LOGO = '/api/public/logo.svg';

/**
 * What a bull-board API call changed, from its method and path (relative to the board), or null for a
 * read: the queue (or "all queues") and the operation as the board names it, e.g.
 * `PUT /api/queues/emails/retry/failed` → emails, "retry failed"; `PUT /api/queues/emails/42/promote`
 * → emails/42, "promote".
 */
export function queueActionOf(method: string, path: string): { entityId: string; operation: string } | null {
  if (method === 'GET' || method === 'HEAD' || !isBoardApiPath(path)) return null;
  // Express routes ignore case, so bull-board answers /API/Queues/… too: its fixed words are compared in
  // lower case (queue names and job ids keep theirs).
  const parts = path.split('/').slice(2).map(decodeURIComponent); // after "/api"
  if (parts[0]!.toLowerCase() !== 'queues') return { entityId: 'all queues', operation: parts.join(' ').toLowerCase() };
  if (parts.length === 2) return { entityId: 'all queues', operation: parts[1]!.toLowerCase() };
  const queue = parts[1]!;
  const rest = parts.slice(2);
  // /:queueName/:jobId/<verb> names a job; /:queueName/<verb>[/<state>] the queue.
  const named = new Set([
    'add',
    'retry',
    'promote',
    'clean',
    'pause',
    'resume',
    'concurrency',
    'rate-limit',
    'empty',
    'obliterate',
    'job-schedulers',
  ]);
  if (rest.length >= 2 && !named.has(rest[0]!.toLowerCase())) return { entityId: `${queue}/${rest[0]}`, operation: rest.slice(1).join(' ').toLowerCase() };
  return { entityId: queue, operation: rest.join(' ').toLowerCase() };
}

/** Board calls that write a job's data (add, duplicate, edit data): refused for every role. */
export const writesJobData = (method: string, path: string): boolean =>
  (method === 'POST' && /^\/api\/queues\/[^/]+\/add\/?$/i.test(path)) ||
  (method === 'PATCH' && /^\/api\/queues\/[^/]+\/[^/]+\/update-data\/?$/i.test(path));

/** A call of the board's JSON API (any spelling: Express matches paths without regard to case). */
const isBoardApiPath = (path: string) => path.slice(0, 5).toLowerCase() === '/api/';

/** bull-board's UI package, found the way @bull-board/api finds it. */
function bullBoardUiPath(): string {
  const fromApi = createRequire(createRequire(import.meta.url).resolve('@bull-board/api'));
  return path.dirname(fromApi.resolve('@bull-board/ui/package.json'));
}

/** bull-board's Express adapter, with the shop's page (./pages.ts) in place of bull-board's template. */
class ShopBoardAdapter extends ExpressAdapter {
  constructor(private readonly page: (params: BoardPageParams) => string) {
    super();
    this.app.disable('x-powered-by');
  }

  override setEntryRoute(route: AppViewRoute): this {
    const paths = Array.isArray(route.route) ? route.route : [route.route];
    this.app.get(paths, (_req, res) => {
      const { params } = route.handler({ basePath: this.basePath, uiConfig: this.uiConfig });
      res.type('html').send(
        this.page({
          basePath: params.basePath ?? this.basePath,
          uiConfig: params.uiConfig ?? '{}',
          title: params.title ?? QUEUE_BOARD_MESSAGES.title,
        }),
      );
    });
    return this;
  }
}

/** One queue on a board: its payloads redacted; read-only for a manager's board. */
function boardQueue(queue: Queue, readOnly: boolean): BullMQAdapter {
  const adapter = new BullMQAdapter(queue, { readOnlyMode: readOnly, allowRetries: !readOnly });
  for (const field of ['data', 'returnValue', 'progress'] as const) adapter.setFormatter(field, (value: unknown) => redactPayload(value));
  return adapter;
}

function buildBoard(queues: Queue[], bundle: BoardBundle, readOnly: boolean): Router {
  const adapter = new ShopBoardAdapter((params) => renderBoardPage(bundle, params));
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => boardQueue(queue, readOnly)),
    serverAdapter: adapter,
    options: {
      uiBasePath: bundle.uiBasePath,
      uiConfig: {
        boardTitle: QUEUE_BOARD_MESSAGES.title,
        boardLogo: { path: SHOP_LOGO, width: 32, height: 32 },
        favIcon: { default: SHOP_LOGO, alternative: SHOP_LOGO },
        miscLinks: [{ text: QUEUE_BOARD_MESSAGES.backOffice, url: '/admin' }],
        // The documentation link points at bull-board's site; the Redis panel's icon styles itself
        // with an inline <style>, which the page's policy refuses (the dashboard shows the queues' depth).
        hideDocsLink: true,
        hideRedisDetails: true,
      },
      // Every answer, whatever the route: failed reasons, stack traces, logs and scheduler templates too.
      handlerHooks: { after: (_context, result) => ({ ...result, body: redactBoardAnswer(result.body) as typeof result.body }) },
    },
  });
  return adapter.getRouter() as Router;
}

const isBoardApi = (req: Request) => isBoardApiPath(req.path);
const wantsPage = (req: Request) => req.method === 'GET' && !isBoardApi(req) && Boolean(req.accepts('html'));

export function queueBoardRoutes(ctx: AppContext): Router {
  const guard = createStaffGuard(ctx);
  // Built on first use: an API process whose staff never open the board opens no queue handles. The
  // two boards (all actions; read-only) share the queues.
  let queues: Queue[] | null = null;
  // Read now: a bull-board whose page the shop cannot rewrite stops the API at start, not in front of staff.
  const bundle = readBoardBundle(bullBoardUiPath());
  const boards = new Map<'manage' | 'view', Router>();
  const boardFor = (role: StaffRole): Router => {
    const kind = can(role, 'queues.manage') ? 'manage' : 'view';
    let board = boards.get(kind);
    if (!board) {
      queues ??= QUEUE_NAMES.map((name) => createQueue(name, ctx.redis, ctx.config.QUEUE_PREFIX));
      board = buildBoard(queues, bundle, kind === 'view');
      boards.set(kind, board);
    }
    return board;
  };

  /** Signed out: to the back office's sign-in (pages) or a 401 (the board's own API calls). */
  const signedIn: RequestHandler = async (req, res, next) => {
    if (await guard.current(req, res)) return next();
    if (wantsPage(req)) return res.redirect(303, '/admin');
    throw new AppError('STAFF_SIGN_IN_REQUIRED', STAFF_MESSAGES.signInRequired);
  };
  /** A role without the board: a page saying so (pages) or the guard's 403 (API calls). */
  const viewGuard = guard.require('queues.view');
  const mayView: RequestHandler = (req, res, next) => {
    const { role } = staffOf(res);
    if (!can(role, 'queues.view') && wantsPage(req)) {
      res
        .status(403)
        .type('html')
        .send(renderNoAccessPage(role, `${QUEUE_BOARD_PATH}/${BOARD_STYLESHEET}`));
      return;
    }
    return viewGuard(req, res, next);
  };
  /** Changes: owners only, and never a job's data. */
  const manageGuard = guard.require('queues.manage');
  const mayChange: RequestHandler = (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    return manageGuard(req, res, () => {
      if (writesJobData(req.method, req.path)) return next(new AppError('QUEUE_JOB_DATA_READ_ONLY', QUEUE_BOARD_MESSAGES.jobDataReadOnly));
      next();
    });
  };
  const audit: RequestHandler = (req, res, next) => {
    const done = queueActionOf(req.method, req.path);
    if (done) {
      const actor = actorOf(req, res);
      res.once('finish', () => {
        if (res.statusCode >= 400) return;
        recordAudit(ctx.db, actor, {
          action: 'queue.changed',
          entityType: 'queue',
          entityId: done.entityId,
          after: { operation: done.operation },
        }).catch((err: unknown) => req.log.error({ err: (err as Error).message }, 'queue action not audited'));
      });
    }
    next();
  };
  /** The board's page and answers are staff-only and change by the second: never stored by a browser or proxy. */
  const noStore: RequestHandler = (req, res, next) => {
    if (!req.path.startsWith('/static/')) res.setHeader('Cache-Control', 'no-store');
    next();
  };
  /** A refusal of a board API call also carries the title bull-board's page shows over its message. */
  const boardErrors: ErrorRequestHandler = (err, req, res, next) => {
    if (!(err instanceof AppError) || !isBoardApi(req)) return next(err);
    const { status, body } = errorAnswer(err);
    res.status(status).json({ ...body, error: QUEUE_BOARD_MESSAGES.refused });
  };

  const router = Router();
  router.use(selfOnlyContentSecurityPolicy({ upgradeInsecureRequests: ctx.config.isProduction }));
  router.get(`/${BOARD_STYLESHEET}`, (_req, res) => {
    res.type('css').setHeader('Cache-Control', 'public, max-age=3600').send(BOARD_CSS);
  });
  router.use(noStore, signedIn, mayView, mayChange, audit, (req, res, next) => boardFor(staffOf(res).role)(req, res, next));
  router.use(boardErrors);
  return router;
}
