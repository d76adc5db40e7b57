import { Router } from 'express';
import { PROMO_MESSAGES, promoCodeInputSchema, type PromoValidation } from '@nh/shared/contracts/promo';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { findPromo } from '../orders/repository';
import { promoGuessLimit } from './guess-limit';

/** GET /api/promo-codes/validate/{code}: the checkout's Apply button. Admin promo CRUD lives elsewhere. */
export function promoValidationRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/promo-codes/validate/:code', promoGuessLimit(ctx).validation, async (req, res) => {
    const parsed = promoCodeInputSchema.safeParse(req.params.code);
    if (!parsed.success) {
      // A code too long to exist is as unknown as any other (404); blank or unusable text is a 400.
      const message = parsed.error.issues[0]?.message ?? PROMO_MESSAGES.invalid;
      throw message === PROMO_MESSAGES.invalid ? notFound(message) : badRequest(message);
    }
    const code = parsed.data;
    const promo = await findPromo(ctx.db.$client, code);
    const usable = promo && promo.isActive && !(promo.singleUse && promo.redeemed) && (promo.discountType === 'percentage' || promo.discountType === 'fixed');
    if (!usable) throw notFound(PROMO_MESSAGES.invalid);
    res.setHeader('Cache-Control', 'no-store');
    const body: PromoValidation = { code: promo.code, discountType: promo.discountType as PromoValidation['discountType'], discountValue: promo.discountValue };
    res.json(body);
  });
  return router;
}
