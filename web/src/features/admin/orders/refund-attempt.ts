/**
 * One Idempotency-Key per refund attempt (docs/decisions/refunds.md "Idempotent"). A refund whose
 * answer never arrived, or whose outcome the server could not know yet, leaves the attempt open:
 * sending the same amount, reason and restock again re-sends the very same request with the same key,
 * so the server answers the first refund instead of making a second. Any change to the refund, or a
 * definite answer (made, or refused), starts a new attempt with a new key.
 */
import { ApiError } from '@/lib/query-client';
import { errorCodeOf } from '../shell/api';

export interface RefundBody {
  /** Two-decimal amount, "12.50". */
  amount: string;
  reason: string;
  restock: boolean;
  /** Issue 23: email the shopper about the refund (on by default). */
  notify?: boolean;
}

export interface RefundAttempt {
  key: string;
  fingerprint: string;
  body: RefundBody;
}

const fingerprintOf = (orderId: string, body: RefundBody) => JSON.stringify([orderId, body.amount, body.reason, body.restock, body.notify !== false]);

/** The open attempt when this is the same refund of the same order, else a new one with a fresh key. */
export function attemptFor(pending: RefundAttempt | null, orderId: string, body: RefundBody, makeKey: () => string = () => crypto.randomUUID()): RefundAttempt {
  const fingerprint = fingerprintOf(orderId, body);
  if (pending && pending.fingerprint === fingerprint) return pending;
  return { key: makeKey(), fingerprint, body };
}

/** No HTTP answer at all: the request may or may not have reached the server. */
export const isNetworkFailure = (error: unknown): boolean => error instanceof TypeError;

/** Answers after which the refund's fate is not settled, so a repeat must carry the same key. */
const UNSETTLED_CODES = new Set(['PAYMENT_OUTCOME_UNKNOWN', 'IDEMPOTENCY_IN_PROGRESS']);

/** Whether the attempt stays open after this failure (a resend then reuses its key). */
export function keepsAttempt(error: unknown): boolean {
  if (isNetworkFailure(error)) return true;
  if (!(error instanceof ApiError)) return false;
  const code = errorCodeOf(error);
  return (code !== undefined && UNSETTLED_CODES.has(code)) || error.status >= 500;
}

/** What staff read when a refund failed: the server's own words, or what a missing answer means. */
export function refundFailureMessage(error: unknown): string {
  if (isNetworkFailure(error)) return 'No answer came from the server, so it is not known whether the refund was made. Send it again: it is sent as the same refund, so it is never made twice.';
  if (error instanceof ApiError) return error.serverMessage ?? `The refund failed (${error.status}).`;
  return 'The refund failed.';
}
