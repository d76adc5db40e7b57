import { Router } from 'express';
import { PROMO_MESSAGES, promoCodeInputSchema, type PromoValidation } from '@nh/shared/contracts/promo';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { PromoGuessLimit } from './guess-limit';
import { findUsablePromo } from '@nh/server/queries/promo';

export interface PromoDeps {
  /** The promo guessing budget, shared with checkout. */
  promoGuesses: PromoGuessLimit;
}

/**
 * GET /api/promo-codes/validate/{code}: the checkout's Apply button (a read; the checkout applies the
 * same rule when it prices the order). Admin promo CRUD lives in admin/promos.
 */
export function promoValidationRoutes(ctx: AppContext, { promoGuesses }: PromoDeps): Router {
  const router = Router();
  router.get('/promo-codes/validate/:code', promoGuesses.validation, async (req, res) => {
    const parsed = promoCodeInputSchema.safeParse(req.params.code);
    if (!parsed.success) {
      // A code too long to exist is as unknown as any other (404); blank or unusable text is a 400.
      const message = parsed.error.issues[0]?.message ?? PROMO_MESSAGES.invalid;
      throw message === PROMO_MESSAGES.invalid ? new AppError('PROMO_NOT_FOUND', message) : new AppError('VALIDATION_FAILED', message);
    }
    const promo = await findUsablePromo(ctx.db.$client, parsed.data);
    if (!promo) throw new AppError('PROMO_NOT_FOUND', PROMO_MESSAGES.invalid);
    res.setHeader('Cache-Control', 'no-store');
    const body: PromoValidation = { code: promo.code, discountType: promo.discountType, discountValue: promo.discountValue };
    res.json(body);
  });
  return router;
}
