/**
 * The card as the shopper types it: number, expiry, CVV and billing ZIP. The checkout and resuming a
 * paused plan ask for the same fields with the same rules and messages, picked from the checkout form.
 */
import { checkoutFormSchema } from '@nh/shared/contracts/checkout';
import type { z } from 'zod';

export const cardFormSchema = checkoutFormSchema.pick({ cardNumber: true, expirationDate: true, cardCode: true, zip: true });
export type CardForm = z.infer<typeof cardFormSchema>;

export const emptyCardForm: CardForm = { cardNumber: '', expirationDate: '', cardCode: '', zip: '' };
