import { Router, type RequestHandler } from 'express';
import { resumeSubscriptionRequestSchema, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import type { PaymentGateway } from '@nh/server/payments/index';
import type { AppContext } from '../../context';
import { parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import { resume } from './resume';
import { cancel, subscriptionsOf } from './service';

export interface SubscriptionDeps {
  /** The gateway that stores a paused plan's new card (null when card payments are not configured). */
  gateway: PaymentGateway | null;
  /** The card-testing guard, shared with every call that sends a card. */
  cardTestingGuard: RequestHandler;
}

/**
 * GET /api/subscriptions, POST /api/subscriptions/{id}/cancel and POST /api/subscriptions/{id}/resume
 * (starting a plan, POST /api/payments/subscribe-nonce, is the checkout's).
 */
export function subscriptionRoutes(ctx: AppContext, { gateway, cardTestingGuard }: SubscriptionDeps): Router {
  const router = Router();
  const signedIn = requireUser(ctx, SUBSCRIPTION_MESSAGES.listLoginRequired);
  const pool = ctx.db.$client;

  router.get('/subscriptions', signedIn, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await subscriptionsOf(pool, signedInUser(res).id));
  });

  router.post('/subscriptions/:id/cancel', signedIn, async (req, res) => {
    res.json(await cancel(pool, signedInUser(res).id, String(req.params.id)));
  });

  // Sends a card: signed in first (401 before anything else), then the card-testing guard.
  router.post('/subscriptions/:id/resume', signedIn, cardTestingGuard, async (req, res) => {
    const id = String(req.params.id);
    const input = parseInput(resumeSubscriptionRequestSchema, req.body);
    res.json(await resume({ pool, gateway, log: ctx.log }, signedInUser(res).id, id, input));
  });

  return router;
}
