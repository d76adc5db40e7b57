/**
 * Checkout: the form (operations spec §3 and §5), POST /api/payments/checkout-nonce, and
 * GET /api/payments/status. The browser form and the API share the customer-field rules, so a message
 * the shopper sees in the form is the message the API answers with.
 */
import { z } from 'zod';
import { LIMITS } from '../constants';
import { SHIPPING_METHODS } from '../shipping-rules';
import { CATALOG_MESSAGES } from './catalog';
import { idField, textField } from './fields';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './newsletter';

export const CHECKOUT_MESSAGES = {
  /** Store credit (issue 23): no card sent and the credit does not pay the whole order. */
  cardRequired: 'Please enter your card details: your store credit does not cover this whole order.',
  /** The payment row of an order store credit paid in full. */
  paidByCredit: 'Paid in full with store credit',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Valid email is required',
  address: 'Address is required',
  city: 'City is required',
  stateShort: 'State is required',
  stateLong: 'Use 2-letter state code',
  zip: 'ZIP code is required',
  zipLong: 'ZIP code is too long',
  cardNumberShort: 'Card number is required',
  cardNumberLong: 'Card number must be at most 19 digits',
  expirationDate: 'Use MM/YY format',
  cardCodeShort: 'CVV is required',
  cardCodeLong: 'CVV must be 3 or 4 digits',
  // Checkout and payment answers.
  idempotencyKeyMissing: 'An Idempotency-Key header is required: send one unique key per checkout attempt.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 8 to 200 letters, digits, dashes or underscores.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different checkout. Start a new checkout attempt with a new key.',
  idempotencyInProgress: 'This checkout is still being processed. Please wait a moment and try again.',
  paymentsUnavailable: 'Payment processing is currently unavailable. Please contact support or try again later.',
  paymentFailed: 'Please check your payment information and try again.',
  tooManyFailures: 'Too many declined payments from this connection. Please try again in 15 minutes or contact support.',
  emptyCart: 'Your cart is empty',
  promoInvalid: 'This promo code is invalid or expired',
  subscribeLoginRequired: 'Please log in to create a subscription.',
  shippingMethod: 'Choose standard or express shipping.',
  /** A plan's deliveries ship standard, free: subscribe-nonce refuses express (400). */
  planShipsStandard: 'Subscribe & Save deliveries ship standard, free of charge: express shipping is for one-time orders.',
  /** 400: subscribe-nonce `intervalCount` not a positive whole number (one outside PLAN_CADENCE_MONTHS is refused by the API with the list). */
  intervalCount: 'Choose how many months between deliveries.',
} as const;

const text = (message: string, max = 200) => textField({ max, required: message, tooLong: message }).min(1, message);

/** Customer and billing fields, shared by the browser form and the checkout call. */
export const customerFieldsSchema = z.object({
  firstName: text(CHECKOUT_MESSAGES.firstName, 100),
  lastName: text(CHECKOUT_MESSAGES.lastName, 100),
  email: textField({ max: EMAIL_MAX_LENGTH, required: CHECKOUT_MESSAGES.email, tooLong: CHECKOUT_MESSAGES.email }).regex(EMAIL_PATTERN, CHECKOUT_MESSAGES.email),
  address: text(CHECKOUT_MESSAGES.address),
  city: text(CHECKOUT_MESSAGES.city, 100),
  state: textField({ max: 2, required: CHECKOUT_MESSAGES.stateShort, tooLong: CHECKOUT_MESSAGES.stateLong }).min(2, CHECKOUT_MESSAGES.stateShort),
  zip: textField({ max: 10, required: CHECKOUT_MESSAGES.zip, tooLong: CHECKOUT_MESSAGES.zipLong }).min(5, CHECKOUT_MESSAGES.zip),
});
export type CustomerFields = z.infer<typeof customerFieldsSchema>;

/** MM/YY with month 01-12. */
export const EXPIRATION_PATTERN = /^(0[1-9]|1[0-2])\/\d{2}$/;

/** The checkout form as the shopper fills it (card fields never leave the browser untokenised). */
export const checkoutFormSchema = customerFieldsSchema.extend({
  cardNumber: z.string().min(13, CHECKOUT_MESSAGES.cardNumberShort).max(19, CHECKOUT_MESSAGES.cardNumberLong),
  expirationDate: z.string().regex(EXPIRATION_PATTERN, CHECKOUT_MESSAGES.expirationDate),
  cardCode: z.string().min(3, CHECKOUT_MESSAGES.cardCodeShort).max(4, CHECKOUT_MESSAGES.cardCodeLong),
  subscribeAndSave: z.boolean(),
  /** Subscribe & Save: deliver every this many months (one of GET /api/subscriptions/cadences). */
  intervalCount: z.number().int().positive(),
});
export type CheckoutForm = z.infer<typeof checkoutFormSchema>;

export const emptyCheckoutForm: CheckoutForm = {
  firstName: '',
  lastName: '',
  email: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  cardNumber: '',
  expirationDate: '',
  cardCode: '',
  subscribeAndSave: false,
  intervalCount: 1,
};

/** "MM/YY" → the month and the four-digit year sent to the tokeniser ('20' + YY). */
export function splitExpiration(expirationDate: string): { month: string; year: string } {
  const [month = '', year = ''] = expirationDate.split('/');
  return { month, year: `20${year}` };
}

const decimalString = (field: string) => z.string({ error: `${field} must be an amount such as "12.99"` }).regex(/^\d{1,8}\.\d{2}$/, `${field} must be an amount such as "12.99"`);

export const addressSchema = customerFieldsSchema.pick({ address: true, city: true, state: true, zip: true });
export type CheckoutAddress = z.infer<typeof addressSchema>;

export const MAX_ORDER_LINES = 50;
export const MAX_LINE_QUANTITY = 999;

export const orderItemSchema = z.object({
  productId: idField('Each item needs a productId', CATALOG_MESSAGES.productNotFound),
  /** Chosen variant's sku, or null for a product without variants. */
  variantSku: textField({ max: 100 }).nullish(),
  quantity: z
    .number({ error: 'Each item needs a quantity of at least 1' })
    .int('Each item needs a whole quantity')
    .min(1, 'Each item needs a quantity of at least 1')
    .max(MAX_LINE_QUANTITY, `At most ${MAX_LINE_QUANTITY} of one item per order`),
  /** Unit price the shopper saw; the server re-prices and refuses a difference. */
  price: decimalString('Item price'),
});
export type OrderItemInput = z.infer<typeof orderItemSchema>;

/** Standard (the default) or express: what the shopper chose in the checkout's shipping choice (issue 25). */
export const shippingMethodSchema = z.enum(SHIPPING_METHODS, { error: CHECKOUT_MESSAGES.shippingMethod });

export const orderDataSchema = z.object({
  items: z.array(orderItemSchema, { error: CHECKOUT_MESSAGES.emptyCart }).min(1, CHECKOUT_MESSAGES.emptyCart).max(MAX_ORDER_LINES, `At most ${MAX_ORDER_LINES} lines per order`),
  subtotal: decimalString('Subtotal'),
  /** Optional: the discount the summary showed. */
  discount: decimalString('Discount').optional(),
  shipping: decimalString('Shipping'),
  tax: decimalString('Tax'),
  total: decimalString('Total'),
  // Normalised as normalizePromoCode does; empty means none.
  promoCode: textField({ max: LIMITS.promoCodeMaxLength, tooLong: CHECKOUT_MESSAGES.promoInvalid })
    .toUpperCase()
    .nullish()
    .transform((code) => (code ? code : null)),
  shippingAddress: addressSchema,
  billingAddress: addressSchema.nullish().transform((a) => a ?? null),
  /** Issue 25: standard unless the shopper chose express (priced for the shipping address's zone). */
  shippingMethod: shippingMethodSchema.optional(),
});
export type OrderData = z.infer<typeof orderDataSchema>;

/** The tokenised card (Accept.js opaque data): every call that takes a card takes these two fields. */
export const opaqueDataFields = {
  dataDescriptor: textField({ max: 100, required: 'Payment details are missing: dataDescriptor' }).min(1, 'Payment details are missing: dataDescriptor'),
  dataValue: textField({ max: 8192, required: 'Payment details are missing: dataValue' }).min(1, 'Payment details are missing: dataValue'),
};

/** POST /api/payments/checkout-nonce. The card may be left out when the shopper's store credit pays the whole order (issue 23). */
export const checkoutNonceRequestSchema = customerFieldsSchema.extend({
  amount: decimalString('Amount'),
  dataDescriptor: opaqueDataFields.dataDescriptor.optional(),
  dataValue: opaqueDataFields.dataValue.optional(),
  orderData: orderDataSchema,
}).superRefine((body, ctx) => {
  // Both halves of the card, or neither (store credit pays all); never one alone.
  if (body.dataDescriptor && !body.dataValue) ctx.addIssue({ code: 'custom', path: ['dataValue'], message: 'Payment details are missing: dataValue' });
  if (body.dataValue && !body.dataDescriptor) ctx.addIssue({ code: 'custom', path: ['dataDescriptor'], message: 'Payment details are missing: dataDescriptor' });
});
export type CheckoutNonceRequest = z.input<typeof checkoutNonceRequestSchema>;
export type CheckoutNonceInput = z.infer<typeof checkoutNonceRequestSchema>;

export const checkoutNonceResponseSchema = z.object({
  orderId: z.string().uuid(),
  /** Store credit (issue 23), when some paid the order: what it paid and what the card was charged ("0.00": no card). */
  creditApplied: z.string().optional(),
  charged: z.string().optional(),
});
export type CheckoutNonceResponse = z.infer<typeof checkoutNonceResponseSchema>;

/** A failed charge (402): the provider's message. */
export const paymentFailureSchema = z.object({ message: z.string(), responseMessage: z.string().optional(), error: z.string().optional() });
export type PaymentFailure = z.infer<typeof paymentFailureSchema>;

/** POST /api/payments/subscribe-nonce (spec §7; the subscription itself is built by the subscriptions area). */
export const subscribeNonceRequestSchema = customerFieldsSchema.extend({
  amount: decimalString('Amount'),
  ...opaqueDataFields,
  interval: z.literal('monthly', { error: 'Subscriptions renew monthly: interval must be "monthly"' }),
  /** Deliver every this many months (default 1): one of PLAN_CADENCE_MONTHS (GET /api/subscriptions/cadences), else 400. */
  intervalCount: z
    .number({ error: CHECKOUT_MESSAGES.intervalCount })
    .int(CHECKOUT_MESSAGES.intervalCount)
    .positive(CHECKOUT_MESSAGES.intervalCount)
    .max(120, CHECKOUT_MESSAGES.intervalCount)
    .default(1),
  items: orderDataSchema.shape.items,
  shippingAddress: z.object(addressSchema.shape, { error: 'Shipping address is required' }),
  /** Applies to the first delivery only (charged now); renewals charge the subscriber price. */
  promoCode: orderDataSchema.shape.promoCode,
  /**
   * Consent on record (issue 22): the SUBSCRIPTION_TERMS_VERSION the checkout showed (optional: the spec's
   * body has no such field, and ticking Subscribe & Save is the consent act); another version is a 409.
   */
  termsVersion: z.string({ error: 'termsVersion must be text' }).max(100, 'termsVersion is too long').optional(),
  /** Issue 25: a plan's deliveries ship standard (free); "express" is refused with a 400 naming the field. */
  shippingMethod: z.literal('standard', { error: CHECKOUT_MESSAGES.planShipsStandard }).optional(),
});
export type SubscribeNonceRequest = z.input<typeof subscribeNonceRequestSchema>;
export type SubscribeNonceInput = z.infer<typeof subscribeNonceRequestSchema>;

/** GET /api/payments/status */
export const paymentsStatusSchema = z.object({
  configured: z.boolean(),
  environment: z.enum(['sandbox', 'production']),
  publicClientKey: z.string().nullable(),
  apiLoginID: z.string().nullable(),
  /** The tokenising script (Accept.js, or the local sandbox's compatible script). */
  acceptJsUrl: z.string().nullable(),
  /** True when charges go to the built-in local sandbox (no Authorize.Net account involved). */
  localSandbox: z.boolean(),
});
export type PaymentsStatus = z.infer<typeof paymentsStatusSchema>;

/** What the tokenising script answers (Accept.js response shape). */
export interface AcceptResponse {
  opaqueData?: { dataDescriptor: string; dataValue: string };
  messages: { resultCode: 'Ok' | 'Error'; message: Array<{ code: string; text: string }> };
}

export const ACCEPT_DATA_DESCRIPTOR = 'COMMON.ACCEPT.INAPP.PAYMENT';

/** The sandbox test card shown on the checkout in sandbox mode. */
export const SANDBOX_TEST_CARD = { number: '4111 1111 1111 1111', declineZip: '46282' } as const;

// ---------------------------------------------------------------- the summary's quote (issue 25)

/** POST /api/checkout/quote: what checkout would charge for this cart, shipped there, priced by the server. */
export const checkoutQuoteRequestSchema = z.object({
  items: z
    .array(orderItemSchema.omit({ price: true }), { error: CHECKOUT_MESSAGES.emptyCart })
    .min(1, CHECKOUT_MESSAGES.emptyCart)
    .max(MAX_ORDER_LINES, `At most ${MAX_ORDER_LINES} lines per order`),
  promoCode: orderDataSchema.shape.promoCode,
  subscribe: z.boolean({ error: 'subscribe must be true or false' }).optional().default(false),
  /** The shipping address's state as typed so far (absent or blank: the home zone, as before an address). */
  state: textField({ max: 2, tooLong: CHECKOUT_MESSAGES.stateLong }).nullish().transform((v) => (v ? v : null)),
  zip: textField({ max: 10, tooLong: CHECKOUT_MESSAGES.zipLong }).nullish().transform((v) => (v ? v : null)),
  shippingMethod: shippingMethodSchema.optional(),
});
export type CheckoutQuoteRequest = z.input<typeof checkoutQuoteRequestSchema>;
export type CheckoutQuoteInput = z.infer<typeof checkoutQuoteRequestSchema>;

const shippingChoiceSchema = z.object({
  /** What it costs on this order ("0.00" when free). */
  price: z.string(),
  free: z.boolean(),
  promise: z.string(),
});

export const checkoutQuoteSchema = z.object({
  subtotal: z.string(),
  /** Each discount on its own line (discountLines): Subscribe & Save, then the promo code. */
  discounts: z.array(z.object({ kind: z.enum(['subscribe', 'promo', 'unsplit']), label: z.string(), amount: z.string() })),
  discount: z.string(),
  shipping: z.string(),
  tax: z.string(),
  total: z.string(),
  /** Each item's tax, in the request's order; `shippingTax` is the part of `tax` due on shipping. */
  lineTaxes: z.array(z.string()),
  shippingTax: z.string(),
  /** Where the tax came from: flat (the spec's 8%), table, taxjar, table-fallback, no-nexus. */
  taxSource: z.enum(['flat', 'table', 'taxjar', 'table-fallback', 'no-nexus']),
  /** The chosen delivery; null when the address cannot be shipped to (`refusal` says why). */
  delivery: z
    .object({ zone: z.string(), zoneName: z.string(), method: z.enum(SHIPPING_METHODS), promise: z.string(), free: z.boolean() })
    .nullable(),
  /** Both choices for the zone, so the form can show them; express null where the zone has none (and for plans). */
  options: z.object({ standard: shippingChoiceSchema, express: shippingChoiceSchema.nullable() }).nullable(),
  /** The zone's free-standard-shipping line ("Free shipping on orders over $50.00"), null when it has none or for a plan. */
  freeShippingNote: z.string().nullable(),
  /** Why checkout would refuse this address (or method): the message, and the field it is about. */
  refusal: z.object({ message: z.string(), field: z.enum(['state', 'shippingMethod']) }).nullable(),
  /** A promo code the request named that is not usable: priced without it, with the message. */
  promoMessage: z.string().nullable(),
  /** Subscribe & Save: what each renewal will charge (without the first delivery's promo), null otherwise. */
  renewalTotal: z.string().nullable(),
});
export type CheckoutQuote = z.infer<typeof checkoutQuoteSchema>;
