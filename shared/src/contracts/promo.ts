/** Promo code validation at checkout: GET /api/promo-codes/validate/{code}. */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { DISCOUNT_TYPES } from '../pricing';
import { textField } from './fields';

export const PROMO_MESSAGES = {
  invalid: 'This promo code is invalid or expired',
  empty: 'Please enter a promo code',
} as const;

/** The one normalisation of a typed code: trimmed and upper-cased. */
export const normalizePromoCode = (code: string): string => code.trim().toUpperCase();

/** A typed code, normalised as normalizePromoCode does; a code too long to exist is "invalid". */
export const promoCodeInputSchema = textField({ max: LIMITS.promoCodeMaxLength, required: PROMO_MESSAGES.empty, tooLong: PROMO_MESSAGES.invalid })
  .toUpperCase()
  .min(1, PROMO_MESSAGES.empty);

export const discountTypeSchema = z.enum(DISCOUNT_TYPES);

export const promoValidationSchema = z.object({
  code: z.string(),
  discountType: discountTypeSchema,
  /** Percent for a percentage code (10 = 10%), whole dollars for a fixed code (5 = $5.00). */
  discountValue: z.number().int(),
});
export type PromoValidation = z.infer<typeof promoValidationSchema>;
