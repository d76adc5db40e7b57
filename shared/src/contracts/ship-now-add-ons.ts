/**
 * Ship now and one-time add-ons (issue 21), for the shopper (My Subscriptions) and staff (the plan page):
 * POST /api/subscriptions/{id}/ship-now (Idempotency-Key), POST …/one-time-items {productId, size?, quantity},
 * DELETE …/one-time-items/{lineId}, and the staff's twins under /api/admin/subscriptions/{id} with a reason.
 * The page view's fields (`oneTimeItems`, `shipNow`) are defined here and added to the plan's view
 * (./subscriptions.ts). docs/decisions/subscriptions.md "Ship now", "One-time add-ons".
 */
import { z } from 'zod';
import { PLAN_ITEM_MAX_QUANTITY, PLAN_MAX_LINES } from '../constants';
import { idField, textField } from './fields';

export const SHIP_NOW_MESSAGES = {
  idempotencyKeyMissing: 'An Idempotency-Key header is required: send one new random key for each Ship Now, and the same key when sending the same request again.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 8 to 200 letters, digits, dashes or underscores.',
  notActive: 'Only an active subscription can ship now. Resume it first.',
  inDunning: 'The payment for your next delivery failed and is being retried, so it cannot ship now. Change your card, or wait for the retry.',
  /** A delivery of the plan was already charged today (by Ship Now or on its billing day): never two in one day. */
  alreadyShippedToday: 'A delivery of this subscription was already charged today, so another one cannot ship now. You can ship now again from tomorrow.',
  /** 409 SUBSCRIPTION_ITEM_UNAVAILABLE, with `unavailableItems` beside it: the same choices as the heads-up email. */
  itemsUnavailable: (names: readonly string[]) =>
    `${names.join(', ')} cannot be delivered at the moment, so your delivery cannot ship now. Change your items (or remove the one-time item), then try again.`,
  /** The toast after the request was taken (202): the charge runs in the background. */
  accepted: 'Your delivery is on its way: we are charging your card now.',
  shipNowFailedTitle: 'Ship now failed',
} as const;

export const ONE_TIME_ITEM_MESSAGES = {
  product: 'Choose a product to add.',
  size: 'Choose one of the product\'s sizes.',
  quantity: `The quantity must be a whole number from 1 to ${PLAN_ITEM_MAX_QUANTITY}.`,
  notActive: 'Only an active subscription can have one-time items added or removed.',
  /** 422 SUBSCRIPTION_ITEMS_INVALID, with `maxLines`. */
  tooMany: `Your next delivery can carry at most ${PLAN_MAX_LINES} one-time items. Remove one before adding another.`,
  /** The same product and size again adds to its quantity, within the limit. */
  tooManyOfOne: `At most ${PLAN_ITEM_MAX_QUANTITY} of one item can be added to a delivery.`,
  added: 'Added to your next delivery',
  removed: 'Removed from your next delivery',
  reasonRequired: 'Please say why the one-time item is added or removed.',
  shipNowReasonRequired: 'Please say why the delivery ships now.',
  reasonTooLong: 'The reason can be at most 500 characters.',
} as const;

/**
 * One-time add-ons are priced from the catalogue on the day they are charged, **with the plan's
 * Subscribe & Save discount** (and its free shipping): they ride in a plan delivery. Said on the page and
 * in the reminder email.
 */
export const ONE_TIME_ITEM_PRICE_NOTE = "Added to your next delivery only, at that day's price with your Subscribe & Save discount.";

/** POST …/one-time-items: `size` is the size's SKU or its label ("1 gal."), required for a product with sizes. */
export const addOneTimeItemRequestSchema = z.object({
  productId: idField(ONE_TIME_ITEM_MESSAGES.product),
  size: textField({ max: 100, required: ONE_TIME_ITEM_MESSAGES.size, tooLong: ONE_TIME_ITEM_MESSAGES.size }).nullish(),
  quantity: z
    .number({ error: ONE_TIME_ITEM_MESSAGES.quantity })
    .int(ONE_TIME_ITEM_MESSAGES.quantity)
    .min(1, ONE_TIME_ITEM_MESSAGES.quantity)
    .max(PLAN_ITEM_MAX_QUANTITY, ONE_TIME_ITEM_MESSAGES.quantity),
});
export type AddOneTimeItemRequest = z.infer<typeof addOneTimeItemRequestSchema>;

const staffReason = (required: string) => textField({ max: 500, required, tooLong: ONE_TIME_ITEM_MESSAGES.reasonTooLong }).min(1, required);

export const addOneTimeItemByStaffSchema = addOneTimeItemRequestSchema.extend({ reason: staffReason(ONE_TIME_ITEM_MESSAGES.reasonRequired) });
export type AddOneTimeItemByStaff = z.infer<typeof addOneTimeItemByStaffSchema>;
export const removeOneTimeItemByStaffSchema = z.object({ reason: staffReason(ONE_TIME_ITEM_MESSAGES.reasonRequired) });
export const shipNowByStaffSchema = z.object({ reason: staffReason(ONE_TIME_ITEM_MESSAGES.shipNowReasonRequired) });

/** A one-time line as the page shows it (no price: it is priced on the day it is charged). */
export const oneTimeItemSchema = z.object({
  id: z.string().uuid(),
  productId: z.number().int(),
  productName: z.string(),
  variantSku: z.string().nullable(),
  quantity: z.number().int(),
  /** Today's catalogue unit price before the discount (two decimals), null when the product is no longer sold. */
  priceToday: z.string().nullable(),
});
export type OneTimeItem = z.infer<typeof oneTimeItemSchema>;

/**
 * The latest Ship Now of the plan (asked within the last day), and how its charge stands: `charging` (the
 * renewal has not answered yet), `charged`, `failed` (declined or not charged: the plan is in its retries),
 * `being-checked` (held for review or its answer lost). Null when none.
 */
export const SHIP_NOW_STATES = ['charging', 'charged', 'failed', 'being-checked'] as const;
export type ShipNowState = (typeof SHIP_NOW_STATES)[number];
export const shipNowStatusSchema = z.object({ period: z.string(), requestedAt: z.string(), state: z.enum(SHIP_NOW_STATES) }).nullable();
export type ShipNowStatus = z.infer<typeof shipNowStatusSchema>;

export const SHIP_NOW_STATE_WORDS: Record<ShipNowState, string> = {
  charging: 'Charging your card for the delivery you asked for today…',
  charged: 'Charged: your delivery ships today.',
  failed: 'The payment for the delivery you asked for failed. We will try again; you can change your card meanwhile.',
  'being-checked': 'The payment for the delivery you asked for is being checked by our team.',
};
