import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { ApiError } from '@/lib/query-client';

/**
 * The text of the 'Payment failed' toast (operations §8): the server's responseMessage, else its
 * error, else its message, else the raw error text, else the generic sentence.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    try {
      const body = JSON.parse(error.body) as { responseMessage?: unknown; error?: unknown; message?: unknown };
      for (const value of [body.responseMessage, body.error, body.message]) if (typeof value === 'string' && value) return value;
    } catch {
      // not JSON: fall through to the raw message
    }
  }
  if (error instanceof Error && error.message) return error.message;
  return CHECKOUT_MESSAGES.paymentFailed;
}
