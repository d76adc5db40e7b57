/**
 * Damage claims and replacements (issue 23; docs/decisions/claims.md).
 *
 * Staff: `POST /api/admin/orders/{id}/claims` with an `Idempotency-Key` header and
 * `{storeCode?, lines: [{line, quantity}], reason, resolution, note?}`: `line` is the 0-based index of
 * the order's line; `resolution` a $0 replacement order, a refund (the refund flow) or store credit (the
 * ledger). The queue: `GET /api/admin/claims?status=`, one claim `GET /api/admin/claims/{id}`, approve
 * `POST /api/admin/claims/{id}/approve {resolution}`, decline `POST /api/admin/claims/{id}/decline {note}`.
 * Figures: `GET /api/admin/reports/claims?from&to`.
 *
 * Photos: the picture's bytes are uploaded first (`POST …/orders/{id}/claims/photos`, staff's under
 * /api/admin, a shopper's and a guest's beside their claim routes), answered `{photo}`; the claim names it
 * as `photo`. Stored privately; staff read it at `GET /api/admin/claims/{id}/photo`.
 */
import { z } from 'zod';
import { STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { textField } from './fields';

export const CLAIM_REASONS = ['arrived_damaged', 'leaking', 'wrong_item', 'missing_item', 'other'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];

/** The words staff and shoppers read for each reason. */
export const CLAIM_REASON_LABELS: Record<ClaimReason, string> = {
  arrived_damaged: 'Arrived damaged',
  leaking: 'Arrived leaking',
  wrong_item: 'Wrong item sent',
  missing_item: 'Item missing from the parcel',
  other: 'Something else',
};

export const CLAIM_RESOLUTIONS = ['replace', 'refund', 'credit'] as const;
export type ClaimResolution = (typeof CLAIM_RESOLUTIONS)[number];

export const CLAIM_RESOLUTION_LABELS: Record<ClaimResolution, string> = {
  replace: 'Free replacement',
  refund: 'Refund to the card',
  credit: 'Store credit',
};

export const CLAIM_STATUSES = ['awaiting_review', 'resolved', 'declined'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  awaiting_review: 'Awaiting review',
  resolved: 'Resolved',
  declined: 'Declined',
};

export const CLAIM_NOTE_MAX_LENGTH = 1000;
/** Most lines in one claim (an order has at most this many lines worth claiming at once). */
export const CLAIM_MAX_LINES = 50;

/** A claim's photo: one picture, sent as its bytes; re-encoded as JPEG without its metadata. */
export const CLAIM_PHOTO_MAX_BYTES = 8 * 1024 * 1024;
export const CLAIM_PHOTO_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** What an upload answers and a claim names: 32 hex digits (the stored file's name, under the order). */
export const CLAIM_PHOTO_PATTERN = /^[0-9a-f]{32}$/;

export interface ClaimPhotoUpload {
  photo: string;
}

export const CLAIM_PHOTO_MESSAGES = {
  notAPhoto: 'That file is not a photo we can use. Attach a JPEG, PNG or WebP picture.',
  tooLarge: `Photos can be at most ${CLAIM_PHOTO_MAX_BYTES / 1024 / 1024} MB. Attach a smaller copy.`,
  tooManyPixels: 'That photo is too large (more than 40 megapixels). Attach a smaller copy.',
  empty: 'Choose a photo to attach.',
  invalid: 'The photo must be the name an upload answered.',
  missing: 'The photo attached to this claim was not found. Please attach it again.',
  none: 'This claim has no photo.',
} as const;

const photoField = z.string({ error: CLAIM_PHOTO_MESSAGES.invalid }).regex(CLAIM_PHOTO_PATTERN, CLAIM_PHOTO_MESSAGES.invalid).optional();

export const CLAIM_MESSAGES = {
  storeCode: 'Please enter a valid store code.',
  linesRequired: 'Choose at least one item of the order to claim.',
  lineIndex: 'Each claimed item must name a line of the order (0 for the first).',
  quantity: 'Each claimed quantity must be a whole number of at least 1.',
  duplicateLine: 'Each line of the order may be named once in a claim.',
  reason: `Choose a reason: ${CLAIM_REASONS.map((r) => CLAIM_REASON_LABELS[r].toLowerCase()).join(', ')}.`,
  resolution: 'Choose how to resolve the claim: a free replacement, a refund to the card, or store credit.',
  noteTooLong: `The note can be at most ${CLAIM_NOTE_MAX_LENGTH} characters.`,
  declineNote: 'Please say why the claim is declined (the customer is not shown it).',
  idempotencyKeyMissing: 'This request needs an Idempotency-Key header, so a second click makes no second claim.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 8 to 200 letters, digits, "-" or "_".',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different claim. Start again with a new key.',
  idempotencyInProgress: 'The same claim is still being made. Please wait a moment and look at the order again.',
  notFound: 'We could not find that claim.',
  noSuchLine: (line: number, lines: number) => `The order has no line ${line + 1} (it has ${lines}).`,
  overClaimed: (name: string, left: number) =>
    left === 0 ? `Every "${name}" of this order has already been claimed.` : `At most ${left} of "${name}" can still be claimed on this order.`,
  notShippable: 'This order was cancelled or is not paid yet, so nothing on it can be claimed.',
  replacementOfReplacement: 'This order is itself a replacement. Claim on it the same way; the replacement will name the first order.',
  noAccount: 'This order was placed as a guest, so store credit cannot be given: send the customer a sign-in code first, or resolve the claim with a refund or a replacement.',
  notAwaiting: 'This claim was already decided.',
  stock: (name: string, available: number) => `Not enough stock of "${name}" to send a replacement (${available} left). Resolve with a refund or store credit, or restock first.`,
  nothingToRefund: 'The claimed items are worth nothing on this order (it was free), so there is nothing to refund or credit. Send a replacement instead.',
} as const;

const storeCodeField = z
  .string()
  .trim()
  .min(1, CLAIM_MESSAGES.storeCode)
  .max(STORE_CODE_MAX_LENGTH, CLAIM_MESSAGES.storeCode)
  .default(STORE_CODE);

export const claimLineSchema = z.object({
  line: z.number({ error: CLAIM_MESSAGES.lineIndex }).int(CLAIM_MESSAGES.lineIndex).min(0, CLAIM_MESSAGES.lineIndex).max(999, CLAIM_MESSAGES.lineIndex),
  quantity: z.number({ error: CLAIM_MESSAGES.quantity }).int(CLAIM_MESSAGES.quantity).min(1, CLAIM_MESSAGES.quantity).max(1000, CLAIM_MESSAGES.quantity),
});

const linesField = z
  .array(claimLineSchema, { error: CLAIM_MESSAGES.linesRequired })
  .min(1, CLAIM_MESSAGES.linesRequired)
  .max(CLAIM_MAX_LINES, CLAIM_MESSAGES.linesRequired)
  .refine((lines) => new Set(lines.map((l) => l.line)).size === lines.length, CLAIM_MESSAGES.duplicateLine);

const noteField = textField({ max: CLAIM_NOTE_MAX_LENGTH, tooLong: CLAIM_MESSAGES.noteTooLong, multiline: true });

export const claimRequestSchema = z.object({
  storeCode: storeCodeField,
  lines: linesField,
  reason: z.enum(CLAIM_REASONS, { error: CLAIM_MESSAGES.reason }),
  resolution: z.enum(CLAIM_RESOLUTIONS, { error: CLAIM_MESSAGES.resolution }),
  note: noteField.optional().default(''),
  photo: photoField,
});
export type ClaimRequest = z.infer<typeof claimRequestSchema>;

/** A shopper's report: items, reason, an optional note and photo; no resolution (staff or the owner's rule decide). */
export const shopperClaimRequestSchema = z.object({
  lines: linesField,
  reason: z.enum(CLAIM_REASONS, { error: CLAIM_MESSAGES.reason }),
  note: noteField.optional().default(''),
  photo: photoField,
});
export type ShopperClaimRequest = z.infer<typeof shopperClaimRequestSchema>;

export const approveClaimSchema = z.object({ resolution: z.enum(CLAIM_RESOLUTIONS, { error: CLAIM_MESSAGES.resolution }), note: noteField.optional().default('') });
export const declineClaimSchema = z.object({ note: textField({ max: CLAIM_NOTE_MAX_LENGTH, tooLong: CLAIM_MESSAGES.noteTooLong, multiline: true }).min(1, CLAIM_MESSAGES.declineNote) });

export const claimListRequestSchema = z.object({ status: z.enum(CLAIM_STATUSES).optional() });

/** A claim as staff see it (words beside the values). */
export interface AdminClaim {
  id: string;
  orderId: string;
  customerEmail: string;
  customerName: string;
  source: 'staff' | 'shopper';
  lines: Array<{ line: number; quantity: number; productName: string }>;
  reason: ClaimReason;
  reasonLabel: string;
  note: string | null;
  hasPhoto: boolean;
  status: ClaimStatus;
  statusLabel: string;
  resolution: ClaimResolution | null;
  resolutionLabel: string | null;
  /** The claimed lines' value (what a refund or credit gives), 2-decimal string. */
  amount: string;
  replacementOrderId: string | null;
  staffEmail: string | null;
  decisionNote: string | null;
  decidedAt: string | null;
  createdAt: string;
}

/** The owner's auto-approval rule (PUT /api/admin/claims/settings). */
export const claimSettingsSchema = z.object({
  autoApprove: z.boolean({ error: 'Say whether shoppers’ claims may be approved automatically.' }),
  maxAmount: z.string({ error: 'Enter the most a claim may be worth, such as 25.00.' }).regex(/^\d{1,5}(\.\d{1,2})?$/, 'Enter the most a claim may be worth, such as 25.00.'),
  windowMonths: z.number({ error: 'Enter how many months to look back (1 to 36).' }).int().min(1, 'Enter how many months to look back (1 to 36).').max(36, 'Enter how many months to look back (1 to 36).'),
});
export type ClaimSettings = z.infer<typeof claimSettingsSchema>;

/** Claim figures by product and reason over a range (GET /api/admin/reports/claims). */
export interface ClaimRates {
  from: string;
  to: string;
  byProduct: Array<{ productId: number | null; productName: string; unitsSold: number; unitsClaimed: number; rate: number }>;
  byReason: Array<{ reason: ClaimReason; label: string; claims: number }>;
  claims: number;
}

const RANGE_MESSAGE = 'Choose a date range: from and to as yyyy-mm-dd, from not after to, at most two years.';
const day = z.string({ error: RANGE_MESSAGE }).regex(/^\d{4}-\d{2}-\d{2}$/, RANGE_MESSAGE).refine((d) => !Number.isNaN(Date.parse(d)), RANGE_MESSAGE);
/** GET /api/admin/reports/claims?from&to (yyyy-mm-dd, UTC, both days included). */
export const claimReportQuerySchema = z
  .object({ from: day, to: day })
  .refine((q) => q.from <= q.to && Date.parse(q.to) - Date.parse(q.from) <= 731 * 86_400_000, RANGE_MESSAGE);

/** The audit actions of a claim's decision (replacement.ts writes them on the claimed order). */
export const CLAIM_DECISION_ACTIONS = ['order.claim_resolved', 'order.claim_declined'] as const;

/**
 * A claim decision's audit row in staff's words, for the order's and the customer's timelines:
 * "Free replacement · Arrived leaking · replacement order 1a2b3c4d · note", and the replacement order's
 * id (linked beside the entry), or null when the claim was not resolved with one.
 */
export function claimDecisionSummary(after: unknown): { detail: string | null; replacementOrderId: string | null } {
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const replacementOrderId = text(a.replacementOrderId);
  const parts = [text(a.resolution) ?? text(a.status), text(a.reason), replacementOrderId ? `replacement order ${replacementOrderId.slice(0, 8)}` : null, text(a.note)];
  const detail = parts.filter(Boolean).join(' · ');
  return { detail: detail || null, replacementOrderId };
}
