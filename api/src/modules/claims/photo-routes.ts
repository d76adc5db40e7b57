/**
 * Uploads of a claim's photo (docs/decisions/claims.md, "Photos"), the picture's bytes as the body, each
 * for one order the caller may claim on, answered `{photo}` for the claim to name:
 * - `POST /api/admin/orders/{id}/claims/photos` (staff with `claims.resolve`);
 * - `POST /api/orders/{id}/claims/photos` (a signed-in shopper, their own order; else the order page's 404);
 * - `POST /api/orders/guest/{id}/claims/photos` (a guest whose browser holds the order's hour: lib/guest-access.ts).
 * Mounted ahead of the API's JSON-only rule and its session middleware (formBodyModules), so the
 * signed-in shopper's route brings the session itself. Who may upload is checked before the body is read.
 */
import { Router, type RequestHandler } from 'express';
import { ACCOUNT_MESSAGES } from '@nh/shared/contracts/account';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { orderExists } from '@nh/server/queries/claims';
import { findOrderOfUser } from '@nh/server/queries/shopper-self-service';
import type { FileStorage } from '@nh/server/storage';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { createLimiter } from '../../lib/rate-limit';
import { sessionMiddleware } from '../../lib/session';
import { createStaffGuard } from '../../lib/staff-auth';
import { isUuid } from '../../lib/validation';
import type { GuestAccess } from '../../lib/guest-access';
import { requireUser, signedInUser } from '../auth';
import { photoBody, storeClaimPhoto } from './photos';
import { SHOPPER_CLAIM_WORDS } from './service';

export function claimPhotoUploadRoutes(ctx: AppContext, { photos, guestAccess }: { photos: FileStorage; guestAccess: GuestAccess }): Router {
  const router = Router();
  const guard = createStaffGuard(ctx);
  const session = sessionMiddleware(ctx);
  // As many as the reports themselves: a photo per report, and a few tries.
  const limit = createLimiter(ctx, { name: 'shopper-claim-photos', windowMs: 3_600_000, limit: 30, message: 'Too many photos from here. Please try again in an hour, or contact us.' }).middleware;
  const store: RequestHandler = async (req, res) => {
    res.status(201).json(await storeClaimPhoto(photos, String(req.params.id), req.body as Buffer));
  };

  const staffOrder: RequestHandler = async (req, _res, next) => {
    const id = String(req.params.id);
    if (!isUuid(id) || !(await orderExists(ctx.db, id))) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
    next();
  };
  router.post('/admin/orders/:id/claims/photos', guard.require('claims.resolve'), staffOrder, ...photoBody, store);

  const guestOrder: RequestHandler = (req, _res, next) => {
    const id = String(req.params.id);
    next(isUuid(id) && guestAccess.has(req, id) ? undefined : new AppError('GUEST_ORDER_ACCESS_ENDED', ACCOUNT_MESSAGES.guestAccessEnded));
  };
  router.post('/orders/guest/:id/claims/photos', limit, guestOrder, ...photoBody, store);

  const ownOrder: RequestHandler = async (req, res, next) => {
    const id = String(req.params.id);
    if (!isUuid(id) || !(await findOrderOfUser(ctx.db, signedInUser(res).id, id))) throw new AppError('NOT_FOUND', SHOPPER_CLAIM_WORDS.notFound);
    next();
  };
  router.post('/orders/:id/claims/photos', limit, session, requireUser(ctx, ACCOUNT_MESSAGES.ordersSignIn), ownOrder, ...photoBody, store);
  return router;
}
