/**
 * Shoppers report a problem with an order (issue 23): `POST /api/orders/{id}/claims` (signed in, their
 * own order) and `POST /api/orders/guest/{id}/claims` (a guest whose emailed order link opened the order
 * in this browser), with an Idempotency-Key header and `{lines: [{line, quantity}], reason, note?, photo?}`
 * (`photo`: what an upload of photo-routes.ts answered for this order).
 */
import { Router } from 'express';
import { shopperClaimRequestSchema } from '@nh/shared/contracts/claims';
import { ACCOUNT_MESSAGES } from '@nh/shared/contracts/account';
import { findOrderOfUser } from '@nh/server/queries/shopper-self-service';
import type { FileStorage } from '@nh/server/storage';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../lib/idempotency';
import { createLimiter } from '../../lib/rate-limit';
import { isUuid, parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import type { GuestAccess } from '../../lib/guest-access';
import { CLAIM_IDEMPOTENCY_MESSAGES } from './open-claim';
import { reportProblem, SHOPPER_CLAIM_WORDS } from './service';

export function claimRoutes(ctx: AppContext, { photos, guestAccess }: { photos: FileStorage; guestAccess: GuestAccess }): Router {
  const router = Router();
  // Reports are rare: 20 an hour per client address is plenty for a shopper and stops a flood.
  const limit = createLimiter(ctx, { name: 'shopper-claims', windowMs: 3_600_000, limit: 20, message: 'Too many reports from here. Please try again in an hour, or contact us.' }).middleware;

  router.post('/orders/guest/:id/claims', limit, async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id) || !guestAccess.has(req, id)) throw new AppError('GUEST_ORDER_ACCESS_ENDED', ACCOUNT_MESSAGES.guestAccessEnded);
    const key = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], CLAIM_IDEMPOTENCY_MESSAGES);
    const answer = await reportProblem({ db: ctx.db, photos }, id, parseInput(shopperClaimRequestSchema, req.body), key, req.id ?? null);
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json(answer.claim);
  });

  router.post('/orders/:id/claims', limit, requireUser(ctx, ACCOUNT_MESSAGES.ordersSignIn), async (req, res) => {
    const id = String(req.params.id);
    const order = isUuid(id) ? await findOrderOfUser(ctx.db, signedInUser(res).id, id) : null;
    if (!order) throw new AppError('NOT_FOUND', SHOPPER_CLAIM_WORDS.notFound);
    const key = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], CLAIM_IDEMPOTENCY_MESSAGES);
    const answer = await reportProblem({ db: ctx.db, photos }, id, parseInput(shopperClaimRequestSchema, req.body), key, req.id ?? null);
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json(answer.claim);
  });

  return router;
}
