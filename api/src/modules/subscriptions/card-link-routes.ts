import { Router, type RequestHandler } from 'express';
import { PLAN_CARD_LINK_MESSAGES, planCardLinkRequestSchema } from '@nh/shared/contracts/plan-card-link';
import type { PaymentGateway } from '@nh/server/payments';
import type { AppContext } from '../../lib/context';
import { createLimiter } from '../../lib/rate-limit';
import { parseInput } from '../../lib/validation';
import { updateCardByLink, viewCardLink } from './card-link';

const HOUR = 60 * 60 * 1000;

/**
 * The card link staff emailed (./card-link.ts), no session needed: GET /api/subscriptions/update-card/{token}
 * (the plan's summary) and POST with the tokenised card. Like the other emailed links' endpoints, 30 tries
 * an hour per client address (guessing tokens); the POST also passes the card-testing guard. The request
 * log and traces drop the token (@nh/server loggable-url).
 */
export function cardLinkRoutes(ctx: AppContext, { gateway, cardTestingGuard }: { gateway: PaymentGateway | null; cardTestingGuard: RequestHandler[] }): Router {
  const router = Router();
  const tokenLimit = createLimiter(ctx, { name: 'plan-card-link', windowMs: HOUR, limit: 30, message: PLAN_CARD_LINK_MESSAGES.tooManyTries }).middleware;
  const path = '/subscriptions/update-card/:token';
  const token = (params: Record<string, unknown>) => String(params.token);

  router.get(path, tokenLimit, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await viewCardLink(ctx.db, token(req.params)));
  });

  router.post(path, tokenLimit, ...cardTestingGuard, async (req, res) => {
    const card = parseInput(planCardLinkRequestSchema, req.body ?? {});
    res.setHeader('Cache-Control', 'no-store');
    res.json(await updateCardByLink({ db: ctx.db, gateway, log: req.log }, token(req.params), card));
  });

  return router;
}
