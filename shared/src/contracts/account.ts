/**
 * Shoppers helping themselves (issue 13): their orders (GET /api/orders, /api/orders/{id}), a guest's
 * order by number and email (POST /api/orders/lookup, then the emailed link: POST /api/orders/access,
 * GET /api/orders/guest/{id}) and the password reset (POST /api/password/forgot, /api/password/reset).
 */
import { z } from 'zod';
import { shippingMethodFieldSchema } from './order-delivery';
import { LIMITS } from '../constants';
import { AUTH_MESSAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth';
import { textField } from './fields';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './newsletter';

/** A password reset link works once, for one hour. */
export const SHOPPER_RESET_TTL_MS = 60 * 60 * 1000;
/** A guest's order link works once, for 24 hours (a parcel's questions rarely wait for one). */
export const ORDER_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Once the link is opened, the browser that opened it sees the order for one hour. */
export const GUEST_ORDER_ACCESS_MS = 60 * 60 * 1000;
/** How many orders the history shows (newest first). */
export const ORDER_HISTORY_LIMIT = 100;

export const ACCOUNT_MESSAGES = {
  email: AUTH_MESSAGES.email,
  orderNumber: `Please enter your order number: the ${LIMITS.orderIdDisplayLength} characters after # in your order confirmation email.`,
  lookupSent: 'If an order with that number was placed with that email address, we have sent it a link to view the order. The link works once, for 24 hours.',
  resetSent: 'If an account uses that email address, we have sent it a link to choose a new password. The link works once, for one hour.',
  resetDone: 'Your password has been changed and every signed-in session has ended. Please sign in with your new password.',
  resetInvalid: 'This password reset link has expired or has already been used. Please ask for a new one.',
  tokenMissing: 'This link is incomplete. Please open the link from your email again.',
  orderLinkInvalid: 'This order link is not valid. Please look up your order again to get a new link.',
  orderLinkUsed: 'This order link has already been used. Please look up your order again to get a new link.',
  orderLinkExpired: 'This order link has expired. Please look up your order again to get a new link.',
  guestAccessEnded: 'Your access to this order has ended. Please look up your order again to get a new link.',
  orderNotFound: 'We could not find that order in your account.',
  ordersSignIn: 'Please sign in to see your orders.',
  tooManyLookups: 'Too many order lookups from this address. Please try again in an hour.',
  tooManyResets: 'Too many password reset requests. Please try again in an hour.',
  passwordTooShort: AUTH_MESSAGES.passwordTooShort,
  passwordTooLong: AUTH_MESSAGES.passwordTooLong,
} as const;

/** The reset form's typed-twice check. */
export const PASSWORDS_DIFFER = 'The two passwords do not match.';

const email = textField({ max: EMAIL_MAX_LENGTH, required: ACCOUNT_MESSAGES.email, tooLong: ACCOUNT_MESSAGES.email })
  .regex(EMAIL_PATTERN, ACCOUNT_MESSAGES.email)
  .toLowerCase();

/** The number as emails show it (`#1a2b3c4d`), or the whole order id; a leading # is allowed. */
const orderNumber = z
  .string({ error: ACCOUNT_MESSAGES.orderNumber })
  .trim()
  .transform((v) => v.replace(/^#/, '').toLowerCase())
  .pipe(z.string().regex(new RegExp(`^[0-9a-f]{${LIMITS.orderIdDisplayLength}}(?:[0-9a-f-]{0,28})$`), ACCOUNT_MESSAGES.orderNumber));

const token = z.string({ error: ACCOUNT_MESSAGES.tokenMissing }).trim().min(20, ACCOUNT_MESSAGES.tokenMissing).max(200, ACCOUNT_MESSAGES.tokenMissing);

export const orderLookupRequestSchema = z.object({ orderNumber, email });
export type OrderLookupRequest = z.input<typeof orderLookupRequestSchema>;

export const orderAccessRequestSchema = z.object({ token });
export const forgotPasswordRequestSchema = z.object({ email });
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.object({
  token,
  password: z
    .string({ error: ACCOUNT_MESSAGES.passwordTooShort })
    .min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.passwordTooLong),
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** The accepted answer of a lookup or a reset request: the same whether or not anything matched. */
export const acceptedResponseSchema = z.object({ message: z.string() });

const orderStatus = z.enum(['pending', 'processing', 'shipped', 'delivered', 'cancelled']);

/** Where a refund went, in the shopper's words. */
export const SHOPPER_REFUND_METHOD_WORDS = { card: 'Refunded to your card', void: 'Card payment cancelled', credit: 'Refunded as store credit' } as const;

/** One refund of an order as the shopper sees it (issue 23). */
export const shopperRefundSchema = z.object({
  id: z.string(),
  method: z.enum(['card', 'void', 'credit']),
  /** Integer cents. */
  amount: z.number().int(),
  lastFour: z.string().nullable(),
  /** The items refunded (a refund by line), empty for a refund by amount. */
  items: z.array(z.object({ productName: z.string(), quantity: z.number().int() })),
  /** Shipping given back with it, integer cents. */
  shipping: z.number().int(),
  createdAt: z.string(),
});
export type ShopperRefund = z.infer<typeof shopperRefundSchema>;

export const shopperOrderSummarySchema = z.object({
  id: z.string(),
  /** The number every email shows. */
  number: z.string(),
  status: orderStatus,
  placedAt: z.string(),
  itemCount: z.number().int(),
  /** Integer cents. */
  total: z.number().int(),
  /** Issue 23: cents given back so far (card refunds and voids, refunds to store credit); 0 when none. */
  refunded: z.number().int().default(0),
});
export type ShopperOrderSummary = z.infer<typeof shopperOrderSummarySchema>;

export const shopperOrderListSchema = z.object({ orders: z.array(shopperOrderSummarySchema) });
export type ShopperOrderList = z.infer<typeof shopperOrderListSchema>;

export const shopperOrderSchema = shopperOrderSummarySchema.extend({
  customerName: z.string(),
  shippingAddress: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
  items: z.array(
    z.object({
      productId: z.number().int(),
      productName: z.string(),
      quantity: z.number().int(),
      /** Unit price, integer cents. */
      unitPrice: z.number().int(),
      /** quantity × unit price, integer cents. */
      lineTotal: z.number().int(),
    }),
  ),
  subtotal: z.number().int(),
  /** The whole discount; its Subscribe & Save and promo parts below, each shown on its own line (`discountLines` of @nh/shared/pricing). */
  discount: z.number().int(),
  subscribeDiscount: z.number().int(),
  promoDiscount: z.number().int(),
  shipping: z.number().int(),
  tax: z.number().int(),
  /** Store credit (issue 23): the part of the total paid with credit ("Store credit" line), integer cents; the card paid the rest. */
  /** Issue 25: standard or express (shown in words, order-delivery.ts). */
  shippingMethod: shippingMethodFieldSchema.default('standard'),
  storeCredit: z.number().int().default(0),
  promoCode: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  /** The carrier's tracking page for the number, when the carrier is one the shop knows. */
  trackingUrl: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** Issue 23: each refund given, oldest first, and what is left of what was paid (integer cents). */
  refunds: z.array(shopperRefundSchema).default([]),
  refundLeft: z.number().int().default(0),
});
export type ShopperOrder = z.infer<typeof shopperOrderSchema>;
