/**
 * Cancellation that listens (issue 22): why a shopper cancels (optional), the one save offer matched to
 * the reason, and the staff report. The "Cancel subscription" button is always beside the offer
 * (docs/decisions/subscriptions.md, "Cancellation").
 */
import { z } from 'zod';
import { textField } from './fields';

/** The reasons offered, in the order the dialog lists them, with their words. "other" takes free text. */
export const CANCEL_REASONS = {
  'too-much': 'I have too much product',
  'ran-out': 'I run out before the next delivery',
  price: 'It costs too much',
  'dislike-product': "I don't like a product",
  'no-longer-needed': "I don't need it any more",
  other: 'Something else',
} as const;
export type CancelReason = keyof typeof CANCEL_REASONS;
export const CANCEL_REASON_VALUES = Object.keys(CANCEL_REASONS) as [CancelReason, ...CancelReason[]];

export const COMMENT_MAX_LENGTH = 500;

export const CANCELLATION_MESSAGES = {
  reason: 'Please choose one of the reasons listed (or none).',
  commentTooLong: `Please keep the comment to ${COMMENT_MAX_LENGTH} characters.`,
  noOffer: 'There is no offer for this plan now.',
  discountUsed: 'This plan has had its discount offer in the last 12 months.',
  badRange: 'Please give both dates as yyyy-mm-dd, "from" not after "to", at most two years apart.',
} as const;

/** POST /api/subscriptions/{id}/cancel: the spec's empty body still works; both fields are optional. */
export const cancelSubscriptionRequestSchema = z
  .object({
    reason: z.enum(CANCEL_REASON_VALUES, { message: CANCELLATION_MESSAGES.reason }).optional(),
    comment: textField({ max: COMMENT_MAX_LENGTH, tooLong: CANCELLATION_MESSAGES.commentTooLong, multiline: true }).optional(),
  })
  .strict();
export type CancelSubscriptionRequest = z.infer<typeof cancelSubscriptionRequestSchema>;

/** The one save offer a reason may bring (null: none). Each is done by its own endpoint. */
export type CancelOffer =
  | { kind: 'longer-cadence'; intervalCount: number }
  | { kind: 'skip'; period: string }
  | { kind: 'shorter-cadence'; intervalCount: number }
  | { kind: 'ship-now' }
  | { kind: 'discount'; percent: number }
  | { kind: 'change-items' };
export type CancelOfferKind = CancelOffer['kind'];

/** What each offer is called (the dialog's button and the staff report). */
export const CANCEL_OFFER_WORDS: Record<CancelOfferKind, string> = {
  'longer-cadence': 'Deliver less often',
  skip: 'Skip the next delivery',
  'shorter-cadence': 'Deliver more often',
  'ship-now': 'Ship the next delivery now',
  discount: 'A discount on the next delivery',
  'change-items': 'Change the items',
};

export const CANCEL_OFFER_KINDS = ['longer-cadence', 'skip', 'shorter-cadence', 'ship-now', 'discount', 'change-items'] as const satisfies readonly CancelOfferKind[];

/**
 * POST /api/subscriptions/{id}/cancel-offer {reason}: the offer to show beside the cancel button, recorded
 * as shown (a write, hence a POST: a GET changes nothing).
 */
export const cancelOfferRequestSchema = z.object({ reason: z.enum(CANCEL_REASON_VALUES, { message: CANCELLATION_MESSAGES.reason }) });
export type CancelOfferRequest = z.infer<typeof cancelOfferRequestSchema>;
export interface CancelOfferAnswer {
  offer: CancelOffer | null;
}

/**
 * POST /api/subscriptions/{id}/cancel-offer/accept: the offer as the dialog showed it. The server works out
 * the change itself from the plan and the reason the offer was shown for; the cadence or period, when
 * sent, must still be the one it offers (else 409: the plan changed since). A ship-now also needs an
 * Idempotency-Key header, as POST …/ship-now does. Answers the plan as My Subscriptions shows it.
 */
export const takeCancelOfferRequestSchema = z.object({
  kind: z.enum(CANCEL_OFFER_KINDS, { message: CANCELLATION_MESSAGES.noOffer }),
  intervalCount: z.number({ message: CANCELLATION_MESSAGES.noOffer }).int(CANCELLATION_MESSAGES.noOffer).positive(CANCELLATION_MESSAGES.noOffer).optional(),
  period: z
    .string({ message: CANCELLATION_MESSAGES.noOffer })
    .regex(/^\d{4}-\d{2}-\d{2}$/, CANCELLATION_MESSAGES.noOffer)
    .optional(),
});
export type TakeCancelOfferRequest = z.infer<typeof takeCancelOfferRequestSchema>;

/** Staff cancelling on the customer's behalf: their own reason (audited) and the customer's, if told. */
export const customerReasonSchema = z.enum(CANCEL_REASON_VALUES, { message: CANCELLATION_MESSAGES.reason }).optional();

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, CANCELLATION_MESSAGES.badRange);
/** GET /api/admin/reports/cancellations?from&to (yyyy-mm-dd, UTC, both days included). */
export const cancellationReportQuerySchema = z
  .object({ from: day, to: day })
  .refine((q) => q.from <= q.to && Date.parse(q.to) - Date.parse(q.from) <= 731 * 86_400_000, CANCELLATION_MESSAGES.badRange);

export interface CancellationReportWeek {
  /** Monday of the week, yyyy-mm-dd, and its words ("Week of Feb 1, 2027"). */
  weekStart: string;
  weekLabel: string;
  /** Cancellations by reason (words; "No reason given" for none). */
  cancellations: { reason: string; count: number }[];
  offersShown: number;
  offersAccepted: number;
  /** Plans whose offer was accepted that week and are not cancelled since. */
  plansSaved: number;
  /** Average days from acceptance to cancellation, or to now for a plan still running (null: no acceptance). */
  averageDaysKept: number | null;
}
export interface CancellationReport {
  from: string;
  to: string;
  weeks: CancellationReportWeek[];
}
