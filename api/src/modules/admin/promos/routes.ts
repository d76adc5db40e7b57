import { Router } from 'express';
import { ADMIN_MESSAGES, createPromoCodeSchema } from '@nh/shared/contracts/admin';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput, pathId } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { createPromoCode, listPromoCodes, togglePromoCode } from './service';

/** Promo codes at /promo-codes (the spec's paths): list, create, toggle. */
export function promoArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  const admin = guard.require('promos.manage');

  router.post('/list', admin, async (_req, res) => {
    res.json(await listPromoCodes(ctx.db));
  });

  router.post('/', admin, async (req, res) => {
    const { code, discountType, discountValue } = parseInput(createPromoCodeSchema, req.body);
    res.status(201).json(await createPromoCode(ctx.db, { code, discountType, discountValue }, actorOf(req, res)));
  });

  router.patch('/:id/toggle', admin, async (req, res) => {
    res.json(await togglePromoCode(ctx.db, pathId(req, ADMIN_MESSAGES.promoNotFound), actorOf(req, res)));
  });

  return [{ path: '/promo-codes', router }];
}
