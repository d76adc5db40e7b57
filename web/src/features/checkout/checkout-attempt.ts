/**
 * One Idempotency-Key per checkout attempt. A submit whose answer never arrived (network failure)
 * leaves the attempt pending: submitting the same form and cart again re-sends the very same request
 * with the same key, so the server answers the first outcome instead of charging twice. Any change
 * to the form or the cart, or any answer from the server, starts a new attempt.
 */
export interface CheckoutAttempt<Body> {
  key: string;
  fingerprint: string;
  body: Body;
}

export function reusableAttempt<Body>(pending: CheckoutAttempt<Body> | null, fingerprint: string): CheckoutAttempt<Body> | null {
  return pending && pending.fingerprint === fingerprint ? pending : null;
}

export function newAttempt<Body>(fingerprint: string, body: Body, makeKey: () => string = () => crypto.randomUUID()): CheckoutAttempt<Body> {
  return { key: makeKey(), fingerprint, body };
}

/** True when the request may not have reached the server (no HTTP answer at all). */
export const isNetworkFailure = (error: unknown): boolean => error instanceof TypeError;
