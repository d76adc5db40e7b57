/**
 * Error answers of the API: every JSON error is `{ message, code, ...details }`. `message` is the
 * sentence for a person (unchanged across versions of a call); `code` is the stable name a program
 * switches on. Each code has one kind, and the API's one error mapper (api/src/lib/errors.ts) chooses
 * the HTTP status from the kind, so a code always comes with the same status.
 *
 * Adding a code: add it here with its kind, throw `new AppError('THE_CODE', message)` in the API.
 */
import { z } from 'zod';

/** What went wrong, as far as the caller is concerned (each kind is one HTTP status). */
export const ERROR_KINDS = [
  'invalid', // 400: the request itself is wrong; fix it before sending it again
  'unauthenticated', // 401
  'payment-refused', // 402: the card was declined or refused
  'forbidden', // 403
  'not-found', // 404
  'conflict', // 409: the state of things does not allow it (now); review and try again
  'gone', // 410
  'too-large', // 413
  'unsupported-media-type', // 415
  'unprocessable', // 422: understood and well formed, but refused (a promo code, a reused key)
  'rate-limited', // 429
  'internal', // 500
  'upstream-unknown', // 502: a provider did not say what happened
  'unavailable', // 503
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Every error code of the API, with its kind. */
export const ERROR_CODES = {
  // ---------------------------------------------------------------- any request
  /** A field, parameter or header failed its contract (`fields` names each problem when there are several). */
  VALIDATION_FAILED: 'invalid',
  INVALID_JSON: 'invalid',
  /** Data PostgreSQL refused to store (an unusual character, a number or text too long). */
  UNSTORABLE_INPUT: 'invalid',
  /** A 4xx from the HTTP layer that carries no code of ours (e.g. a static file's error). */
  BAD_REQUEST: 'invalid',
  BODY_TOO_LARGE: 'too-large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  ROUTE_NOT_FOUND: 'not-found',
  /** A page, product, order, export, plan … that does not exist (or is not the caller's). */
  NOT_FOUND: 'not-found',
  FOREIGN_ORIGIN: 'forbidden',
  /** GET /metrics on the public port without the bearer token of METRICS_TOKEN. */
  METRICS_TOKEN_REQUIRED: 'unauthenticated',
  RATE_LIMITED: 'rate-limited',
  INTERNAL: 'internal',

  // ---------------------------------------------------------------- accounts and staff
  NOT_SIGNED_IN: 'unauthenticated',
  WRONG_CREDENTIALS: 'unauthenticated',
  SIGN_IN_CODE_INVALID: 'unauthenticated',
  EMAIL_TAKEN: 'conflict',
  ADMIN_AUTH_FAILED: 'unauthenticated',
  /** A back-office call without a staff session (never signed in, expired, signed out, or disabled since). */
  STAFF_SIGN_IN_REQUIRED: 'unauthenticated',
  STAFF_SIGN_IN_FAILED: 'unauthenticated',
  STAFF_ACCOUNT_DISABLED: 'forbidden',
  /** The staff member's role does not include this action. */
  STAFF_FORBIDDEN: 'forbidden',
  STAFF_EXISTS: 'conflict',
  STAFF_INVITATION_PENDING: 'conflict',
  /** The change would leave the shop without an active owner. */
  STAFF_LAST_OWNER: 'conflict',
  STAFF_INVITATION_INVALID: 'not-found',
  STAFF_INVITATION_EXPIRED: 'gone',
  STAFF_INVITATION_USED: 'gone',
  /** The invitation's sender is disabled, or may no longer invite that role: an owner sends a new one. */
  STAFF_INVITATION_INVITER_INACTIVE: 'gone',
  STAFF_RESET_INVALID: 'gone',

  // ---------------------------------------------------------------- shoppers' self-service (issue 13)
  /** A shopper's reset link that is unknown, spent or expired (one answer: nothing to learn from it). */
  PASSWORD_RESET_INVALID: 'gone',
  ORDER_LINK_INVALID: 'not-found',
  ORDER_LINK_USED: 'gone',
  ORDER_LINK_EXPIRED: 'gone',
  /** The guest's hour with an order (from its emailed link) is over, or this browser never had one. */
  GUEST_ORDER_ACCESS_ENDED: 'forbidden',

  // ---------------------------------------------------------------- checkout, subscribing, card payments
  PAYMENTS_UNAVAILABLE: 'unavailable',
  IDEMPOTENCY_KEY_MISSING: 'invalid',
  IDEMPOTENCY_KEY_INVALID: 'invalid',
  IDEMPOTENCY_KEY_REUSED: 'unprocessable',
  IDEMPOTENCY_IN_PROGRESS: 'conflict',
  /** A product (or the chosen size) is no longer sold. */
  PRODUCT_UNAVAILABLE: 'conflict',
  OUT_OF_STOCK: 'conflict',
  PRICE_CHANGED: 'conflict',
  CHECKOUT_TOTAL_CHANGED: 'conflict',
  /** Issue 25: the shipping address is somewhere the shop does not ship to (or express is not offered there): `fields` names the field. */
  SHIPPING_UNAVAILABLE: 'unprocessable',
  /** The catalogue kept changing under one checkout. */
  CART_CHANGED: 'conflict',
  /** Subscribe & Save: the terms version the checkout showed is not the current one (consent on record). */
  SUBSCRIPTION_TERMS_CHANGED: 'conflict',
  /** At checkout: the promo code is unknown, inactive or used up. */
  PROMO_INVALID: 'unprocessable',
  /** At GET /api/promo-codes/validate/{code}: no usable code by that name. */
  PROMO_NOT_FOUND: 'not-found',
  PAYMENT_DECLINED: 'payment-refused',
  /**
   * The gateway's answer was lost, so what it did is not known: at checkout the order is kept until the
   * payment reconciliation knows; a card stored for a paused plan is not used.
   */
  PAYMENT_OUTCOME_UNKNOWN: 'upstream-unknown',

  // ---------------------------------------------------------------- subscriptions
  SUBSCRIPTION_ENDED: 'conflict',
  SUBSCRIPTION_NOT_PAUSED: 'conflict',
  /** Changed while its new card was stored (a cancel, another resume). */
  SUBSCRIPTION_CHANGED: 'conflict',
  /** Nothing to deliver or nowhere to deliver it: a new card would not help. */
  SUBSCRIPTION_NOT_RESUMABLE: 'conflict',
  /** Pause, skip, reschedule, change the card or items of a plan that is not active (staff and shoppers). */
  SUBSCRIPTION_NOT_ACTIVE: 'conflict',
  /** Back office: a plan paused by failed renewals (or with no saved card) is restarted by the customer with a new card. */
  SUBSCRIPTION_NEEDS_NEW_CARD: 'conflict',
  /** Back office: the next delivery's charge is under way or its outcome unknown; skip and reschedule wait for it. */
  SUBSCRIPTION_CHARGE_IN_PROGRESS: 'conflict',
  SUBSCRIPTION_CHARGE_BEING_CHECKED: 'conflict',
  /** Back office: a plan in dunning keeps its date (skip, pause or cancel instead). */
  SUBSCRIPTION_IN_DUNNING: 'conflict',
  /** A new next billing date outside the allowed window (`earliest`, `latest` beside it), staff and shoppers. */
  SUBSCRIPTION_DATE_NOT_ALLOWED: 'unprocessable',
  /** My Subscriptions: new quantities that are not the plan's items, or none left. */
  SUBSCRIPTION_ITEMS_INVALID: 'unprocessable',
  /** A cadence (months between deliveries) not among PLAN_CADENCE_MONTHS: 422 on a plan change (subscribe-nonce answers 400 VALIDATION_FAILED). */
  SUBSCRIPTION_CADENCE_NOT_OFFERED: 'unprocessable',
  /** My Subscriptions: an item of the plan no longer sold cannot be kept (only removed), one out of stock not raised; a product not sold (or out of stock) not added. */
  SUBSCRIPTION_ITEM_NOT_SOLD: 'conflict',
  /** A card link staff emailed (/subscriptions/update-card/{token}): unknown; spent; expired (or replaced by a newer one). */
  PLAN_CARD_LINK_INVALID: 'not-found',
  PLAN_CARD_LINK_USED: 'gone',
  PLAN_CARD_LINK_EXPIRED: 'gone',
  /** A one-click action link from an email (/email-actions/{token}): unknown; spent; stale (its delivery charged, skipped or moved, or the plan ended). */
  EMAIL_ACTION_INVALID: 'not-found',
  EMAIL_ACTION_USED: 'gone',
  EMAIL_ACTION_STALE: 'gone',
  /** Bulk swap: the same product and size on both sides. */
  BULK_SWAP_SAME_PRODUCT: 'invalid',
  /** Bulk swap: a product (or size) to swap from or to that does not exist. */
  BULK_SWAP_UNKNOWN_PRODUCT: 'conflict',
  /** Bulk swap: the product to swap to is not on sale. */
  BULK_SWAP_PRODUCT_NOT_ACTIVE: 'conflict',
  /** Ship now (issue 21): a line (or add-on) the delivery could not have today (`unavailableItems` beside it). */
  SUBSCRIPTION_ITEM_UNAVAILABLE: 'conflict',
  /** Ship now: a delivery of the plan was already charged today. */
  SUBSCRIPTION_ALREADY_SHIPPED_TODAY: 'conflict',

  // ---------------------------------------------------------------- back office
  SLUG_TAKEN: 'conflict',
  CATEGORY_MISSING: 'invalid',
  KIT_CONTENTS_INVALID: 'invalid',
  PRODUCT_IN_KIT: 'conflict',
  PROMO_CODE_EXISTS: 'conflict',
  /** Reopening a cancelled order needs stock that is no longer there. */
  NOT_ENOUGH_STOCK: 'conflict',
  EXPORT_NOT_READY: 'conflict',
  EXPORT_FAILED: 'conflict',
  EXPORT_FILE_GONE: 'gone',
  ALREADY_SYNCED: 'conflict',
  CREDIT_NOT_SYNCED: 'conflict',
  /** The queue dashboard: adding a job or editing a job's data by hand (every role; jobs come from the outbox). */
  QUEUE_JOB_DATA_READ_ONLY: 'forbidden',
  /** Refunds and voids (POST /api/admin/orders/{id}/refunds): the order has no captured charge. */
  /** Staff asked to resend the shipping notice of an order that has not shipped. */
  ORDER_NOT_SHIPPED: 'conflict',
  /** Marking shipped or delivered an order whose whole payment was voided or refunded (or is being). */
  ORDER_PAYMENT_RETURNED: 'conflict',
  /** Changing the shipping address of an order that has shipped, was delivered or is cancelled (issue 23). */
  ORDER_ADDRESS_LOCKED: 'conflict',
  REFUND_NO_CHARGE: 'conflict',
  /** More than the charge captured less what was given back already. */
  REFUND_TOO_LARGE: 'unprocessable',
  /** Part of a charge that has not settled yet: only a void of the whole amount is possible. */
  REFUND_PARTIAL_UNSETTLED: 'conflict',
  /** The payment service has the charge as voided, declined, expired or unknown: nothing to give back. */
  REFUND_NOT_POSSIBLE: 'conflict',
  /** Restock asked for an order whose items are already back in stock (cancelled, or restocked by an earlier refund). */
  REFUND_ALREADY_RESTOCKED: 'conflict',
  /** The payment service refused the refund or void; nothing was given back. */
  REFUND_DECLINED: 'payment-refused',

  // ---------------------------------------------------------------- customers (issue 23)
  /** A privacy request on a customer already anonymised, or a change to one. */
  CUSTOMER_ANONYMISED: 'conflict',
  /** An account's action (a sign-in code, merging guest orders) asked for a guest. */
  CUSTOMER_NO_ACCOUNT: 'conflict',
  /** Merging guest orders into an account that has not proved it holds its email. */
  CUSTOMER_EMAIL_NOT_VERIFIED: 'conflict',
  CUSTOMER_NOTHING_TO_MERGE: 'conflict',
  /** An email change to the address the customer already has. */
  CUSTOMER_EMAIL_SAME: 'unprocessable',
  /** An email change to an address another account already uses. */
  CUSTOMER_EMAIL_TAKEN: 'conflict',
  /** An email-change link that is not (or no longer) one: unknown, used, expired, or replaced by a newer one. */
  EMAIL_CHANGE_LINK_INVALID: 'not-found',
  EMAIL_CHANGE_LINK_USED: 'gone',
  /** The shopper's own email change: their current password missing or wrong, or (no password) a sign-in too old. */
  EMAIL_CHANGE_PASSWORD: 'forbidden',
  EMAIL_CHANGE_SIGN_IN_AGAIN: 'forbidden',
  EMAIL_CHANGE_LINK_EXPIRED: 'gone',
  /** Store credit for a customer id that is no shopper account (a guest): send them a sign-in code first. */
  CREDIT_NO_ACCOUNT: 'conflict',
  CLAIM_OVER_CLAIMED: 'unprocessable',
  CLAIM_NOT_CLAIMABLE: 'conflict',
  CLAIM_NO_ACCOUNT: 'conflict',
  CLAIM_ALREADY_DECIDED: 'conflict',
  /** A claim naming a photo that was not uploaded for this order (or is gone): attach it again. */
  CLAIM_PHOTO_MISSING: 'unprocessable',
  /** A grant above what the staff member's role may give at once (support's limit). */
  CREDIT_OVER_LIMIT: 'forbidden',
  /** A movement that would take the balance below zero. */
  CREDIT_INSUFFICIENT: 'conflict',
} as const satisfies Record<string, ErrorKind>;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The body of every error answer (other fields, e.g. `fields` or `expected`, depend on the code). */
export const apiErrorSchema = z.looseObject({ message: z.string(), code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]) });
export type ApiError = z.infer<typeof apiErrorSchema>;
