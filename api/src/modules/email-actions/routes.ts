import { Router } from 'express';
import { EMAIL_ACTION_MESSAGES, emailActionRequestSchema } from '@nh/shared/contracts/email-actions';
import type { AppContext } from '../../lib/context';
import { createLimiter } from '../../lib/rate-limit';
import { parseInput } from '../../lib/validation';
import { performEmailAction, viewEmailAction } from './service';

const HOUR = 60 * 60 * 1000;

/**
 * One-click actions from emails (./service.ts), no session needed: GET /api/email-actions/{token} (what
 * the link does; changes nothing: HEAD is GET without a body) and POST (does it; a cancel link may carry
 * {reason, comment}). Like the other emailed links' endpoints, 30 tries an hour per client address
 * (guessing tokens). The request log and traces drop the token (@nh/server loggable-url).
 */
export function emailActionRoutes(ctx: AppContext): Router {
  const router = Router();
  const tokenLimit = createLimiter(ctx, {
    name: 'email-action-link',
    windowMs: HOUR,
    limit: 30,
    message: EMAIL_ACTION_MESSAGES.tooManyTries,
  }).middleware;
  const path = '/email-actions/:token';
  const token = (params: Record<string, unknown>) => String(params.token);

  router.get(path, tokenLimit, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await viewEmailAction(ctx.db, token(req.params)));
  });

  router.post(path, tokenLimit, async (req, res) => {
    const input = parseInput(emailActionRequestSchema, req.body ?? {});
    res.setHeader('Cache-Control', 'no-store');
    res.json(await performEmailAction(ctx.db, ctx.config.PLAN_CADENCE_MONTHS, token(req.params), input));
  });

  return router;
}
