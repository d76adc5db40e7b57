/**
 * Store credit (issue 23; docs/decisions/store-credit.md): an append-only ledger per shopper account.
 * Staff grant it (`POST /api/admin/customers/{id}/credit` with an `Idempotency-Key` header and
 * `{amount, reason}`), shoppers read it (`GET /api/account/credit`), checkout and renewals spend it
 * before the card, and a refund may go to it instead of the card.
 */
import { z } from 'zod';
import { centsToDecimal, formatCents, toCents, type Cents } from '../money';
import { textField } from './fields';

export const STORE_CREDIT_KINDS = ['grant', 'refund', 'spend', 'reverse', 'expire'] as const;
export type StoreCreditKind = (typeof STORE_CREDIT_KINDS)[number];

/** The words staff and shoppers read for each kind of movement. */
export const STORE_CREDIT_KIND_LABELS: Record<StoreCreditKind, string> = {
  grant: 'Credit given',
  refund: 'Refund to store credit',
  spend: 'Used on an order',
  reverse: 'Returned (order not paid)',
  expire: 'Expired',
};

export const CREDIT_REASON_MAX_LENGTH = 500;

export const STORE_CREDIT_MESSAGES = {
  amountRequired: 'Please enter the amount of credit to give',
  amountFormat: 'The amount must be written like 12.50, with at most 2 decimals',
  amountPositive: 'The amount must be at least 0.01',
  amountTooLarge: 'The amount must be at most 10000.00',
  reasonRequired: 'Please give a reason for the credit (the customer does not see it)',
  reasonTooLong: `The reason must be at most ${CREDIT_REASON_MAX_LENGTH} characters`,
  noAccount: 'This customer has no account yet, so credit cannot be given: send them a sign-in code first, then give the credit to their account.',
  idempotencyKeyMissing: 'An Idempotency-Key header is required: a new random key for each grant, the same key when sending the same grant again.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 8 to 200 letters, digits, "-" or "_".',
  idempotencyKeyReused: 'This Idempotency-Key was used for a different grant. Use a new key for a new grant.',
  idempotencyInProgress: 'This grant is still being recorded. Please wait a moment and reload.',
} as const;

/** Support's limit, said in words (the role's most per grant). */
export const creditOverLimitMessage = (limit: Cents): string =>
  `Your role can give at most ${formatCents(limit)} of credit at a time. Ask a manager to give more.`;

/** The most one grant may give (a typo guard: $10,000.00). */
export const MAX_CREDIT_GRANT_CENTS = 1_000_000;

const MONEY_TEXT = /^\d{1,8}(\.\d{1,2})?$/;

const creditAmount = z
  .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined || issue.input === null ? STORE_CREDIT_MESSAGES.amountRequired : STORE_CREDIT_MESSAGES.amountFormat) })
  .transform((v) => (typeof v === 'number' ? (Number.isFinite(v) && v >= 0 ? v.toFixed(2) : '-') : v.trim()))
  .refine((v) => v !== '', STORE_CREDIT_MESSAGES.amountRequired)
  .refine((v) => v === '' || MONEY_TEXT.test(v), STORE_CREDIT_MESSAGES.amountFormat)
  .transform((v) => (MONEY_TEXT.test(v) ? toCents(v) : 0))
  .refine((cents) => cents >= 1, STORE_CREDIT_MESSAGES.amountPositive)
  .refine((cents) => cents <= MAX_CREDIT_GRANT_CENTS, STORE_CREDIT_MESSAGES.amountTooLarge);

export const grantCreditRequestSchema = z.object({
  amount: creditAmount,
  reason: textField({ max: CREDIT_REASON_MAX_LENGTH, required: STORE_CREDIT_MESSAGES.reasonRequired, tooLong: STORE_CREDIT_MESSAGES.reasonTooLong, multiline: true }).min(
    1,
    STORE_CREDIT_MESSAGES.reasonRequired,
  ),
});
export type GrantCreditInput = z.input<typeof grantCreditRequestSchema>;

/** One movement as staff and shoppers see it: amounts as 2-decimal strings (signed), the kind in words. */
export interface StoreCreditEntryView {
  id: number;
  kind: StoreCreditKind;
  /** The kind in words ("Credit given"). */
  label: string;
  /** Signed: "15.00" added, "-4.99" taken. */
  amount: string;
  balanceAfter: string;
  /** The order it was used on or came from, if any. */
  orderId: string | null;
  /** A goodwill grant's expiry (ISO time): what is left of it then expires. Null: never. */
  expiresAt: string | null;
  createdAt: string;
}

/** GET /api/account/credit: the shopper's balance and history (newest first). */
export interface StoreCreditView {
  balance: string;
  entries: StoreCreditEntryView[];
}

/** The staff view adds the reason and who gave it. */
export interface StaffStoreCreditEntryView extends StoreCreditEntryView {
  reason: string | null;
  staffName: string | null;
}

/** POST /api/admin/customers/{id}/credit's answer (201). */
export interface GrantCreditResponse {
  balance: string;
  entry: StaffStoreCreditEntryView;
}

/** A ledger row as read (integer cents). */
export interface StoreCreditEntryRow {
  id: number;
  kind: StoreCreditKind;
  amount: Cents;
  balanceAfter: Cents;
  reason: string | null;
  staffName: string | null;
  orderId: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

const signed = (cents: Cents): string => (cents < 0 ? `-${centsToDecimal(-cents)}` : centsToDecimal(cents));

/** A ledger row as the shopper sees it (no reason, no staff name). */
export const toStoreCreditEntryView = (e: StoreCreditEntryRow): StoreCreditEntryView => ({
  id: e.id,
  kind: e.kind,
  label: STORE_CREDIT_KIND_LABELS[e.kind],
  amount: signed(e.amount),
  balanceAfter: centsToDecimal(e.balanceAfter),
  orderId: e.orderId,
  expiresAt: e.expiresAt?.toISOString() ?? null,
  createdAt: e.createdAt.toISOString(),
});

/** A ledger row as staff see it. */
export const toStaffStoreCreditEntryView = (e: StoreCreditEntryRow): StaffStoreCreditEntryView => ({ ...toStoreCreditEntryView(e), reason: e.reason, staffName: e.staffName });
