/**
 * One budget of refused promo codes per client address (PROMO_REFUSALS_PER_15_MIN per 15 minutes),
 * used up by refusals at GET /api/promo-codes/validate/{code} and by promo refusals at checkout alike,
 * so codes cannot be guessed through either door. While it is used up, both answer 429. Made once by
 * the composition root (modules/index.ts) and handed to both.
 */
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { clientAddressKey, createLimiter } from '../../lib/rate-limit';

export const PROMO_GUESS_MESSAGE = 'Too many promo codes tried from this connection. Please try again in 15 minutes.';

export interface PromoGuessLimit {
  /** For the validation route: counts its refusals, answers 429 when the budget is used up. */
  validation: RequestHandler;
  /** For checkout: a request naming a promo code is refused with 429 while the budget is used up. */
  beforeCheckout: RequestHandler;
  /** Counts a promo refusal decided by checkout. */
  countRefusal: (req: Request) => Promise<void>;
}

export function promoGuessLimit(ctx: AppContext): PromoGuessLimit {
  const limiter = createLimiter(ctx, {
    name: 'promo-refusals',
    windowMs: 15 * 60 * 1000,
    limit: ctx.config.PROMO_REFUSALS_PER_15_MIN,
    count: 'failures',
    message: PROMO_GUESS_MESSAGE,
  });
  return {
    validation: limiter.middleware,
    beforeCheckout: async (req, _res, next) => {
      const body = req.body as { promoCode?: unknown; orderData?: { promoCode?: unknown } } | undefined;
      const code = body?.orderData?.promoCode ?? body?.promoCode;
      if (typeof code === 'string' && code.trim() && (await limiter.exhausted(clientAddressKey(req)))) return next(new AppError('RATE_LIMITED', PROMO_GUESS_MESSAGE));
      next();
    },
    countRefusal: (req) => limiter.hit(clientAddressKey(req)),
  };
}
