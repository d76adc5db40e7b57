import type { RequestHandler } from 'express';
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import type { AppContext } from '../context';
import { AppError } from './errors';

/**
 * Card testing guard: a client address that got `limit` payments refused (402) in the last 15
 * minutes is stopped until the window passes. Every call that sends a card uses it (checkout,
 * subscribing, resuming a plan with a new card) and they share one counter per address. Only refused
 * payments count (not successful orders, not stock or price refusals, not requests still running);
 * the counter lives in Redis, so it holds across API processes. Made once by the composition root and
 * handed to the modules whose calls send a card.
 */
export function cardTestingGuard({ config, redis }: Pick<AppContext, 'config' | 'redis'>): RequestHandler {
  const limit = config.PAYMENT_FAILURES_PER_15_MIN;
  if (limit === 0) return (_req, _res, next) => next();
  const windowSeconds = 15 * 60;
  return async (req, res, next) => {
    const key = `${config.QUEUE_PREFIX}:pay-failures:${req.ip ?? 'unknown'}`;
    const failures = Number(await redis.get(key).catch(() => null)) || 0;
    if (failures >= limit) return next(new AppError('RATE_LIMITED', CHECKOUT_MESSAGES.tooManyFailures));
    res.on('finish', () => {
      if (res.statusCode !== 402 || res.getHeader('Idempotent-Replayed')) return;
      redis
        .multi()
        .incr(key)
        .expire(key, windowSeconds, 'NX')
        .exec()
        .catch(() => {});
    });
    next();
  };
}
