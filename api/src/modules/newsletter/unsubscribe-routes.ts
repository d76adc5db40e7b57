import express, { Router } from 'express';
import { NEWSLETTER_MESSAGES } from '@nh/shared/contracts/newsletter';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/validation';
import { subscriptionByToken, unsubscribe } from './service';

/**
 * The newsletter's unsubscribe link. The token in the path is the only credential (no session).
 * POST is the RFC 8058 one-click target: a mail client posts `List-Unsubscribe=One-Click` as a form
 * with no cookie, and the unsubscribe page posts with no body; either way the body is ignored. Mounted
 * ahead of the API's JSON-only rule (see `formBodyModules`). GET changes nothing, so link scanners
 * that open every link in a message unsubscribe no one.
 */
export function newsletterUnsubscribeRoutes(ctx: AppContext): Router {
  const router = Router();
  const path = '/newsletter/unsubscribe/:token';
  const tokenOf = (params: { token?: string }) => {
    const token = String(params.token ?? '');
    if (!isUuid(token)) throw new AppError('NOT_FOUND', NEWSLETTER_MESSAGES.unsubscribeLinkUnknown);
    return token;
  };

  router.get(path, async (req, res) => {
    const state = await subscriptionByToken(ctx.db, tokenOf(req.params));
    if (!state) throw new AppError('NOT_FOUND', NEWSLETTER_MESSAGES.unsubscribeLinkUnknown);
    res.setHeader('Cache-Control', 'no-store');
    res.json(state);
  });

  router.post(path, express.urlencoded({ extended: false, limit: '1kb' }), async (req, res) => {
    const state = await unsubscribe(ctx.db, tokenOf(req.params));
    if (!state) throw new AppError('NOT_FOUND', NEWSLETTER_MESSAGES.unsubscribeLinkUnknown);
    res.setHeader('Cache-Control', 'no-store');
    res.json(state);
  });

  return router;
}
