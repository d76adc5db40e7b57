import { Router } from 'express';
import { resumeSubscriptionRequestSchema, SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import type { AppContext } from '../../context';
import { parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import { paymentFailureLimit } from '../payments/failure-limit';
import { resume } from './resume';
import { cancel, subscriptionsOf } from './service';

/**
 * GET /api/subscriptions, POST /api/subscriptions/{id}/cancel and POST /api/subscriptions/{id}/resume
 * (POST /api/payments/subscribe-nonce lives with payments).
 */
export function subscriptionRoutes(ctx: AppContext): Router {
  const router = Router();
  const signedIn = requireUser(ctx, SUBSCRIPTION_MESSAGES.listLoginRequired);

  router.get('/subscriptions', signedIn, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await subscriptionsOf(ctx, signedInUser(res).id));
  });

  router.post('/subscriptions/:id/cancel', signedIn, async (req, res) => {
    res.json(await cancel(ctx, signedInUser(res).id, String(req.params.id)));
  });

  // Sends a card: signed in first (401 before anything else), then the payments' card-testing guard.
  router.post('/subscriptions/:id/resume', signedIn, paymentFailureLimit(ctx), async (req, res) => {
    const id = String(req.params.id);
    const input = parseInput(resumeSubscriptionRequestSchema, req.body);
    res.json(await resume(ctx, signedInUser(res).id, id, input));
  });

  return router;
}
