import { Router, type RequestHandler } from 'express';
import { cancelOfferRequestSchema, takeCancelOfferRequestSchema, type CancelOfferAnswer } from '@nh/shared/contracts/cancellation';
import type { AppContext } from '../../lib/context';
import { parseInput } from '../../lib/validation';
import { signedInUser } from '../auth';
import { shipNowKeyHash } from './add-ons';
import { acceptCancelOffer, cancelOffer, type OfferSettings } from './cancellation';

/**
 * The cancel dialog's save offer (issue 22; mounted by ./routes.ts behind its sign-in):
 * POST /api/subscriptions/{id}/cancel-offer {reason} (the offer, recorded as shown; `offer: null` for none:
 * a write, so not a GET) and POST …/cancel-offer/accept {kind, intervalCount?, period?} (the change the
 * offer makes and its acceptance, in one transaction; a ship-now with its Idempotency-Key). Cancelling is
 * POST …/cancel with its optional reason.
 */
export function cancellationRoutes(ctx: AppContext, signedIn: RequestHandler): Router {
  const router = Router();
  const { db } = ctx;
  const settings = (): OfferSettings => ({ offered: ctx.config.PLAN_CADENCE_MONTHS, discountPercent: ctx.config.CANCEL_SAVE_DISCOUNT_PERCENT });
  const userId = (res: Parameters<typeof signedInUser>[0]) => signedInUser(res).id;
  const id = (params: Record<string, unknown>) => String(params.id);

  router.post('/subscriptions/:id/cancel-offer', signedIn, async (req, res) => {
    const { reason } = parseInput(cancelOfferRequestSchema, req.body);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ offer: await cancelOffer(db, settings(), userId(res), id(req.params), reason) } satisfies CancelOfferAnswer);
  });

  router.post('/subscriptions/:id/cancel-offer/accept', signedIn, async (req, res) => {
    const taken = parseInput(takeCancelOfferRequestSchema, req.body);
    const keyHash = taken.kind === 'ship-now' ? shipNowKeyHash(req.headers['idempotency-key']) : null;
    res.json(await acceptCancelOffer(db, settings(), userId(res), id(req.params), taken, keyHash));
  });

  return router;
}
