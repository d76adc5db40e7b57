/**
 * Refunds and voids of an order's charge, from the back office (docs/decisions/refunds.md):
 * `POST /api/admin/orders/{id}/refunds` with an `Idempotency-Key` header and `{storeCode?, amount,
 * reason, restock}`. Before the charge settles the whole amount is voided; after, any part of it up to
 * what is left is refunded. The order's detail lists its payment rows and what is still refundable.
 */
import { z } from 'zod';
import { STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { formatCents, toCents, type Cents } from '../money';
import { textField } from './fields';

/** A payment row's kind: money taken, given back after settlement, or a charge cancelled before it. */
export const PAYMENT_KINDS = ['charge', 'refund', 'void'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_STATUSES = ['pending', 'approved', 'declined', 'error', 'refunded'] as const;
export type PaymentRowStatus = (typeof PAYMENT_STATUSES)[number];

/** The words staff read for each kind. */
export const PAYMENT_KIND_LABELS: Record<PaymentKind, string> = { charge: 'Charge', refund: 'Refund', void: 'Void' };

/** The words staff read for each status (a pending refund is in flight, or its answer was lost). */
export const PAYMENT_STATUS_LABELS: Record<PaymentRowStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  declined: 'Declined',
  error: 'Failed',
  refunded: 'Refunded',
};

/** Where a refund goes: back to the card (a refund or void at the payment service), or to store credit. */
export const REFUND_METHODS = ['card', 'credit'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** Longest refund reason kept. */
export const REFUND_REASON_MAX_LENGTH = 500;

export const REFUND_MESSAGES = {
  storeCode: 'Please enter a valid store code.',
  amountFormat: 'Refund amount must be an amount such as 12.50, with at most 2 decimals',
  amountRequired: 'Please enter the amount to refund',
  amountPositive: 'Refund amount must be at least 0.01',
  reasonRequired: 'Please give a reason for the refund',
  reasonTooLong: `The reason must be at most ${REFUND_REASON_MAX_LENGTH} characters`,
  restockRequired: 'Say whether the items go back in stock (restock: true or false)',
  idempotencyKeyMissing: 'An Idempotency-Key header is required: a new random key for each refund, the same key when sending the same refund again.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 8 to 200 letters, digits, "-" or "_".',
  idempotencyKeyReused: 'This Idempotency-Key was used for a different refund of this order. Use a new key for a new refund.',
  idempotencyInProgress: 'This refund is still being processed. Please wait a moment and reload the order.',
  noCharge: 'This order has no captured payment, so there is nothing to refund.',
  nothingLeft: 'This order has been refunded in full: nothing is left to refund.',
  gatewayUnavailable: 'The payment service could not be reached, so nothing was refunded. Please try again in a few minutes.',
  paymentsUnavailable: 'Card payments are not configured, so refunds cannot be made.',
  outcomeUnknown:
    'The payment service did not answer, so it is not known whether the money was given back. The refund is kept as pending and its amount is held; check the payment service before trying again.',
  alreadyRestocked: 'The items of this order are already back in stock. Refund without restocking.',
  notFoundAtGateway: 'The payment service has no record of this charge, so it cannot be refunded there.',
  methodInvalid: 'Choose where the refund goes: "card" or "credit"',
  creditNoAccount: 'This order was placed without an account, so it cannot be refunded to store credit: refund it to the card, or send the customer a sign-in code first.',
  creditNoRestock: 'A refund to store credit does not put items back in stock. Refund without restocking, then adjust the stock by hand if the items came back.',
  nothingPaid: 'Nothing was paid for this order, so there is nothing to refund.',
} as const;

/** A refund by line's refusals (issue 23). */
export const REFUND_LINE_MESSAGES = {
  lineInvalid: "Each refunded line must name one of the order's lines (line: 0 for the first)",
  quantityInvalid: 'Each refunded line needs a quantity of at least 1',
  restockInvalid: "Say whether the line's items go back in stock (restock: true or false)",
  linesInvalid: `Refund at most 100 lines, each as {line, quantity, restock}`,
  includeShippingInvalid: 'Say whether the shipping is refunded too (includeShipping: true or false)',
  notifyInvalid: 'Say whether the customer is told about the refund (notify: true or false)',
  amountOrLines: 'Refund either an amount or lines (with or without shipping), not both',
  restockPerLine: 'With a refund by line, say for each line whether its items go back in stock',
  nothingChosen: 'Choose at least one line to refund, or the shipping',
  lineTwice: 'Name each line once, with the quantity to refund',
  noSuchLine: (line: number, count: number): string => `This order has ${count} line${count === 1 ? '' : 's'}, so there is no line ${line + 1} to refund.`,
  tooMany: (name: string, left: number): string =>
    left === 0 ? `Every ${name} of this order was refunded already.` : `At most ${left} of ${name} can still be refunded: the rest were refunded already.`,
  shippingRefunded: 'The shipping of this order was refunded already.',
  noShipping: 'This order had free shipping, so there is no shipping to refund.',
  zeroAmount: 'Nothing was paid for the items chosen, so there is nothing to refund.',
  creditByLine: 'A refund to store credit is by amount only: enter the amount to give as credit.',
  restockCancelled: 'The items went back in stock when the order was cancelled. Refund without restocking.',
} as const;

/** POST /api/admin/orders/{id}/refunds with method "credit": the credit given and the order's totals. */
export interface CreditRefundResponse {
  method: 'credit';
  /** The amount given as store credit ("12.50"). */
  amount: string;
  /** The account's store credit balance after it. */
  balance: string;
  /** Given back in all (card refunds and voids, and refunds to credit). */
  refunded: string;
  refundable: string;
}

/** More than is left: says how much can be refunded and why. */
export const refundTooLargeMessage = (refundable: Cents, captured: Cents, givenBack: Cents): string =>
  givenBack > 0
    ? `At most ${formatCents(refundable)} can be refunded: ${formatCents(captured)} was captured and ${formatCents(givenBack)} has already been refunded or is being refunded.`
    : `At most ${formatCents(refundable)} can be refunded: that is what was captured.`;

/** Part of an unsettled charge: only the whole amount can be voided now. */
export const partialUnsettledMessage = (captured: Cents): string =>
  `This payment has not settled yet, so it can only be voided in full (${formatCents(captured)}). Refund the whole amount now, or wait until the payment settles (usually within a day) to refund part of it.`;

/** The payment service has the charge in a state that gives nothing back. */
export const notRefundableMessage = (status: string): string => `The payment service has this charge as ${status}, so nothing can be refunded.`;

/**
 * Why an order cannot be marked shipped or delivered: its whole payment was voided, refunded, or is being
 * refunded (ORDER_PAYMENT_RETURNED, 409). Shown on the order page beside the status too.
 */
export const NOT_SHIPPABLE_MESSAGES = {
  voided: 'The payment for this order was voided, so it cannot be marked shipped or delivered. Cancel the order instead; to send it anyway, the customer must order and pay again.',
  refunded: (captured: Cents): string =>
    `The payment for this order was refunded in full (${formatCents(captured)}), so it cannot be marked shipped or delivered. Cancel the order instead; to send it anyway, the customer must order and pay again.`,
  refunding: "A refund of this order's whole payment is being processed, so it cannot be marked shipped or delivered. Reload the order once the refund has gone through.",
  /** A refund (or void) that would leave nothing of the payment got no answer from the payment service: it may have gone through. */
  refundUnconfirmed:
    "A refund of this order's payment got no answer from the payment service, so it may have gone through, and the order cannot be marked shipped or delivered. Check that refund in the payment service (Authorize.Net) before shipping anything.",
} as const;

/** A void refused because the charge settled while it was being voided. */
export const SETTLED_MEANWHILE_MESSAGE = 'The payment settled while it was being voided, so nothing was given back. Please refund again: it will now be a refund.';

const MONEY_TEXT = /^\d{1,8}(\.\d{1,2})?$/;

/** A positive amount with at most 2 decimals, "12.50" (or 12.5), into cents. */
const refundAmount = z
  .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined || issue.input === null ? REFUND_MESSAGES.amountRequired : REFUND_MESSAGES.amountFormat) })
  .transform((v) => (typeof v === 'number' ? (Number.isFinite(v) && v >= 0 ? v.toFixed(2) : '-') : v.trim()))
  .refine((v) => v !== '', REFUND_MESSAGES.amountRequired)
  .refine((v) => v === '' || MONEY_TEXT.test(v), REFUND_MESSAGES.amountFormat)
  .transform((v) => toCents(v))
  .refine((cents) => cents >= 1, REFUND_MESSAGES.amountPositive);

/** Most lines one refund names (an order has far fewer). */
export const REFUND_LINES_MAX = 100;

/** One line of a refund by line (issue 23): `line` is the 0-based index of the order's line. */
export const refundLineSchema = z.object({
  line: z.number({ error: REFUND_LINE_MESSAGES.lineInvalid }).int(REFUND_LINE_MESSAGES.lineInvalid).min(0, REFUND_LINE_MESSAGES.lineInvalid).max(10_000, REFUND_LINE_MESSAGES.lineInvalid),
  quantity: z.number({ error: REFUND_LINE_MESSAGES.quantityInvalid }).int(REFUND_LINE_MESSAGES.quantityInvalid).min(1, REFUND_LINE_MESSAGES.quantityInvalid).max(100_000, REFUND_LINE_MESSAGES.quantityInvalid),
  restock: z.boolean({ error: REFUND_LINE_MESSAGES.restockInvalid }).default(false),
});
export type RefundLine = z.output<typeof refundLineSchema>;

/**
 * A refund by amount (`amount`, `restock`) as before, or by line (issue 23: `lines` and/or
 * `includeShipping`, the server working out the amount from what was paid for them; each line says
 * whether its items go back in stock). `notify` (default true) emails the shopper about the refund.
 */
export const refundRequestSchema = z
  .object({
    storeCode: textField({ max: STORE_CODE_MAX_LENGTH, required: REFUND_MESSAGES.storeCode, tooLong: REFUND_MESSAGES.storeCode })
      .min(1, REFUND_MESSAGES.storeCode)
      .default(STORE_CODE),
    amount: refundAmount.optional(),
    reason: textField({ max: REFUND_REASON_MAX_LENGTH, required: REFUND_MESSAGES.reasonRequired, tooLong: REFUND_MESSAGES.reasonTooLong, multiline: true }).min(
      1,
      REFUND_MESSAGES.reasonRequired,
    ),
    restock: z.boolean({ error: REFUND_MESSAGES.restockRequired }).optional(),
    /** Store credit (issue 23): give the amount back as store credit on the customer's account instead of to the card. */
    method: z.enum(REFUND_METHODS, { error: REFUND_MESSAGES.methodInvalid }).default('card'),
    lines: z.array(refundLineSchema, { error: REFUND_LINE_MESSAGES.linesInvalid }).max(REFUND_LINES_MAX, REFUND_LINE_MESSAGES.linesInvalid).optional(),
    includeShipping: z.boolean({ error: REFUND_LINE_MESSAGES.includeShippingInvalid }).optional(),
    /** Email the shopper about the refund (on unless staff untick it). */
    notify: z.boolean({ error: REFUND_LINE_MESSAGES.notifyInvalid }).default(true),
  })
  .superRefine((v, ctx) => {
    const byLine = v.lines !== undefined || v.includeShipping !== undefined;
    if (byLine && v.amount !== undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: REFUND_LINE_MESSAGES.amountOrLines });
    if (byLine && v.restock !== undefined) ctx.addIssue({ code: 'custom', path: ['restock'], message: REFUND_LINE_MESSAGES.restockPerLine });
    if (!byLine && v.amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: REFUND_MESSAGES.amountRequired });
    if (!byLine && v.restock === undefined) ctx.addIssue({ code: 'custom', path: ['restock'], message: REFUND_MESSAGES.restockRequired });
    if (byLine && (v.lines ?? []).length === 0 && v.includeShipping !== true) ctx.addIssue({ code: 'custom', path: ['lines'], message: REFUND_LINE_MESSAGES.nothingChosen });
    const seen = new Set<number>();
    for (const [i, l] of (v.lines ?? []).entries()) {
      if (seen.has(l.line)) ctx.addIssue({ code: 'custom', path: ['lines', i, 'line'], message: REFUND_LINE_MESSAGES.lineTwice });
      seen.add(l.line);
    }
  });
export type RefundRequestInput = z.input<typeof refundRequestSchema>;
export type RefundRequest = z.output<typeof refundRequestSchema>;

/** One payment row of an order, as the order's detail and a refund's answer show it. Amounts are 2-decimal strings. */
export const adminPaymentSchema = z.object({
  id: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.string(),
  cardType: z.string().nullable(),
  lastFour: z.string().nullable(),
  /** The provider's transaction id (of the charge, refund or void itself). */
  transactionId: z.string().nullable(),
  /** The provider's words about it (approved, declined and why, …). */
  message: z.string().nullable(),
  /** A refund's or void's charge. */
  parentId: z.string().nullable(),
  /** Why staff refunded or voided. */
  reason: z.string().nullable(),
  /** Who refunded or voided (null for a charge, or an account since deleted). */
  staffEmail: z.string().nullable(),
  /** The refund put the order's items back in stock (or will, while pending). */
  restocked: z.boolean(),
  createdAt: z.string(),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

/** The answer to a refund (201, and the same answer to a repeat with its key): the refund's row and the order's totals after it. */
export const refundResponseSchema = z.object({
  payment: adminPaymentSchema,
  /** Given back so far (approved refunds and voids), 2-decimal string. */
  refunded: z.string(),
  /** What can still be refunded, 2-decimal string. */
  refundable: z.string(),
});
export type RefundResponse = z.infer<typeof refundResponseSchema>;

/**
 * Where an order's charge stands, for the refund dialog's review step (issue 23:
 * `POST /api/admin/orders/{id}/settlement`). unsettled: only a void of the whole charge is possible;
 * settled: a refund of any part; closed: nothing can be given back (voided, declined, …); unknown: the
 * payment service could not be asked (the refund itself still decides); none: no card charge.
 */
export const SETTLEMENT_STATES = ['unsettled', 'settled', 'closed', 'unknown', 'none'] as const;
export type ChargeSettlementState = (typeof SETTLEMENT_STATES)[number];

export const chargeSettlementSchema = z.object({
  state: z.enum(SETTLEMENT_STATES),
  /** The payment service's own word (capturedPendingSettlement, settledSuccessfully, voided, …), when it was asked. */
  status: z.string().nullable(),
  /** What the charge captured, 2-decimal string; null without a charge. */
  captured: z.string().nullable(),
  cardType: z.string().nullable(),
  lastFour: z.string().nullable(),
  /** The sentence staff read in the review step (settlementSentence). */
  message: z.string(),
});
export type ChargeSettlement = z.infer<typeof chargeSettlementSchema>;

/**
 * The one sentence of where the charge stands, in staff words: `card` is how the card reads
 * ("Visa ending 1111"), or null when unknown.
 */
export function settlementSentence(state: ChargeSettlementState, captured: Cents | null, card: string | null, status: string | null = null): string {
  const to = card ? `the ${card}` : 'the card';
  switch (state) {
    case 'unsettled':
      return `This payment has not settled yet, so the whole charge${captured === null ? '' : ` (${formatCents(captured)})`} will be voided: the customer is never charged. A partial refund is not possible until it settles (usually within a day).`;
    case 'settled':
      return `This payment has settled, so the money will be refunded to ${to}.`;
    case 'closed':
      return status ? notRefundableMessage(status) : 'The payment service has closed this charge, so nothing can be refunded.';
    case 'none':
      return REFUND_MESSAGES.noCharge;
    case 'unknown':
      return 'The payment service could not be asked whether this payment has settled. If it has not, the whole charge is voided instead of refunded.';
  }
}
