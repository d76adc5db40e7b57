import { Router } from 'express';
import { SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import type { AppContext } from '../../context';
import { signedInUser } from '../auth';
import { cancel, subscriptionsOf } from './service';
import { requireSignedIn } from './signed-in';

/** GET /api/subscriptions and POST /api/subscriptions/{id}/cancel (POST /api/payments/subscribe-nonce lives with payments). */
export function subscriptionRoutes(ctx: AppContext): Router {
  const router = Router();
  const signedIn = requireSignedIn(ctx, SUBSCRIPTION_MESSAGES.listLoginRequired);

  router.get('/subscriptions', signedIn, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await subscriptionsOf(ctx, signedInUser(res).id));
  });

  router.post('/subscriptions/:id/cancel', signedIn, async (req, res) => {
    res.json(await cancel(ctx, signedInUser(res).id, String(req.params.id)));
  });

  return router;
}
