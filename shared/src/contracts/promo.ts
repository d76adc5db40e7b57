/** Promo code validation at checkout: GET /api/promo-codes/validate/{code}. */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { DISCOUNT_TYPES } from '../pricing';

export const PROMO_MESSAGES = {
  invalid: 'This promo code is invalid or expired',
  empty: 'Please enter a promo code',
} as const;

/** The one normalisation of a typed code: trimmed and upper-cased. */
export const normalizePromoCode = (code: string): string => code.trim().toUpperCase();

export const promoCodeInputSchema = z
  .string({ error: PROMO_MESSAGES.empty })
  .transform(normalizePromoCode)
  .pipe(z.string().min(1, PROMO_MESSAGES.empty).max(LIMITS.promoCodeMaxLength, PROMO_MESSAGES.invalid));

export const discountTypeSchema = z.enum(DISCOUNT_TYPES);

export const promoValidationSchema = z.object({
  code: z.string(),
  discountType: discountTypeSchema,
  /** Percent for a percentage code (10 = 10%), whole dollars for a fixed code (5 = $5.00). */
  discountValue: z.number().int(),
});
export type PromoValidation = z.infer<typeof promoValidationSchema>;
