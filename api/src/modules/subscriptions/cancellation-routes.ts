import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { CANCEL_REASON_VALUES, CANCELLATION_MESSAGES, type CancelOfferAnswer, type CancelOfferKind } from '@nh/shared/contracts/cancellation';
import type { AppContext } from '../../lib/context';
import { parseInput } from '../../lib/validation';
import { signedInUser } from '../auth';
import { acceptCancelOffer, cancelOffer, type OfferSettings } from './cancellation';

const OFFER_KINDS = ['longer-cadence', 'skip', 'shorter-cadence', 'ship-now', 'discount', 'change-items'] as const satisfies readonly CancelOfferKind[];
const offerQuerySchema = z.object({ reason: z.enum(CANCEL_REASON_VALUES, { message: CANCELLATION_MESSAGES.reason }) });
const acceptSchema = z.object({ kind: z.enum(OFFER_KINDS, { message: CANCELLATION_MESSAGES.noOffer }) });

/**
 * The cancel dialog's save offer (issue 22; mounted by ./routes.ts behind its sign-in):
 * GET /api/subscriptions/{id}/cancel-offer?reason= (the offer, recorded as shown; `offer: null` for none)
 * and POST …/cancel-offer/accept {kind} (the discount is written on the plan; other kinds, done by their
 * own endpoints, are recorded as accepted). Cancelling is POST …/cancel with its optional reason.
 */
export function cancellationRoutes(ctx: AppContext, signedIn: RequestHandler): Router {
  const router = Router();
  const { db } = ctx;
  const settings = (): OfferSettings => ({ offered: ctx.config.PLAN_CADENCE_MONTHS, discountPercent: ctx.config.CANCEL_SAVE_DISCOUNT_PERCENT });
  const userId = (res: Parameters<typeof signedInUser>[0]) => signedInUser(res).id;
  const id = (params: Record<string, unknown>) => String(params.id);

  router.get('/subscriptions/:id/cancel-offer', signedIn, async (req, res) => {
    const { reason } = parseInput(offerQuerySchema, req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ offer: await cancelOffer(db, settings(), userId(res), id(req.params), reason) } satisfies CancelOfferAnswer);
  });

  router.post('/subscriptions/:id/cancel-offer/accept', signedIn, async (req, res) => {
    const { kind } = parseInput(acceptSchema, req.body);
    res.json(await acceptCancelOffer(db, settings(), userId(res), id(req.params), kind));
  });

  return router;
}
