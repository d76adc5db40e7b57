import { Router } from 'express';
import { normalizePromoCode, PROMO_MESSAGES, type PromoValidation } from '@nh/shared/contracts/promo';
import { LIMITS } from '@nh/shared';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { findPromo } from '../orders/repository';

/** GET /api/promo-codes/validate/{code}: the checkout's Apply button. Admin promo CRUD lives elsewhere. */
export function promoValidationRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/promo-codes/validate/:code', async (req, res) => {
    const code = normalizePromoCode(String(req.params.code ?? ''));
    if (!code) throw badRequest(PROMO_MESSAGES.empty);
    if (code.length > LIMITS.promoCodeMaxLength) throw notFound(PROMO_MESSAGES.invalid);
    const promo = await findPromo(ctx.db.$client, code);
    const usable = promo && promo.isActive && !(promo.singleUse && promo.redeemed) && (promo.discountType === 'percentage' || promo.discountType === 'fixed');
    if (!usable) throw notFound(PROMO_MESSAGES.invalid);
    res.setHeader('Cache-Control', 'no-store');
    const body: PromoValidation = { code: promo.code, discountType: promo.discountType as PromoValidation['discountType'], discountValue: promo.discountValue };
    res.json(body);
  });
  return router;
}
