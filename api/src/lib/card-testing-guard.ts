import type { Request, RequestHandler, Response } from 'express';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import type { AppContext } from './context';
import { clientAddressKey, createLimiter } from './rate-limit';
import { isUuid } from './validation';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Only a payment or card refused (402) spends a budget; not an answer replayed from an idempotency key. */
const notRefused = (_req: Request, res: Response) => res.statusCode !== 402 || Boolean(res.getHeader('Idempotent-Replayed'));

/**
 * Card testing guard: refused payments and refused new cards (402) spend three budgets of 15 minutes,
 * each checked before a card is sent, every refusal counted in all that apply:
 *
 * - the client address (keyed as every limit: an IPv6 address by its /56), PAYMENT_FAILURES_PER_15_MIN;
 * - the signed-in shopper, from any address, PAYMENT_FAILURES_PER_ACCOUNT_PER_15_MIN;
 * - the plan a call names (resume with a new card, a new card for an active plan: each stores the card
 *   with a live $0 authorisation), from any address, PAYMENT_FAILURES_PER_PLAN_PER_15_MIN.
 *
 * Every call that sends a card uses it (checkout, subscribing, resuming a plan with a new card, changing
 * a plan's card; staff have no card path). A spent budget answers 429 with the checkout's
 * "Too many declined payments" until its window passes. A call is counted from its start (a burst
 * cannot slip past the count) and uncounted when it ends in anything but a refusal (an order, a stock or
 * price refusal, a replay). The counters are the Redis limiter's (RATE_LIMIT_PREFIX), shared by every API
 * process. A figure of 0 turns that budget off. Made once by the composition root and handed to the
 * modules whose calls send a card, as the list of handlers a route runs before its own.
 */
export function cardTestingGuard(ctx: AppContext): RequestHandler[] {
  const { config } = ctx;
  const budget = (name: string, limit: number, key: (req: Request) => string) =>
    limit === 0
      ? []
      : [
          createLimiter(ctx, {
            name,
            windowMs: FIFTEEN_MINUTES,
            limit,
            count: 'failures',
            requestWasSuccessful: notRefused,
            message: CHECKOUT_MESSAGES.tooManyFailures,
            key,
          }).middleware,
        ];
  const planOf = (req: Request) => {
    const id = (req.params as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' && isUuid(id) ? `plan:${id}` : '';
  };
  return [
    ...budget('pay-failures', config.PAYMENT_FAILURES_PER_15_MIN, clientAddressKey),
    ...budget('pay-failures-account', config.PAYMENT_FAILURES_PER_ACCOUNT_PER_15_MIN, (req) =>
      req.session?.userId ? `user:${req.session.userId}` : '',
    ),
    ...budget('pay-failures-plan', config.PAYMENT_FAILURES_PER_PLAN_PER_15_MIN, planOf),
  ];
}
