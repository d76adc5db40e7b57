import { Router, type Response } from 'express';
import { CHECKOUT_MESSAGES, checkoutNonceRequestSchema, subscribeNonceRequestSchema } from '@nh/shared/contracts/checkout';
import { SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { SANDBOX_ACCEPT_SCRIPT, type AcceptSecureData } from '@nh/server/payments/index';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestHash } from '../../lib/idempotency';
import { parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import { checkoutOrder, IDEMPOTENCY_MESSAGES, placeOrder, type CheckoutAnswer } from '../orders/service';
import { promoGuessLimit } from '../promo/guess-limit';
import { subscribe } from '../subscriptions/subscribe';
import { paymentFailureLimit } from './failure-limit';
import { paymentsFor } from './provider';

/** A checkout refused for its promo code (a replayed answer was counted when it was first given). */
const isPromoRefusal = (answer: CheckoutAnswer): boolean =>
  !answer.replayed && answer.status === 422 && (answer.body as { message?: unknown }).message === CHECKOUT_MESSAGES.promoInvalid;

function send(res: Response, answer: CheckoutAnswer): void {
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(answer.status).json(answer.body);
}

export function paymentRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/payments/status', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(paymentsFor(ctx).status);
  });

  const failureLimit = paymentFailureLimit(ctx);
  const promoGuesses = promoGuessLimit(ctx);

  router.post('/payments/checkout-nonce', failureLimit, promoGuesses.beforeCheckout, async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], IDEMPOTENCY_MESSAGES);
    const input = parseInput(checkoutNonceRequestSchema, req.body);
    const answer = await placeOrder(ctx, checkoutOrder(input), { idempotencyKey, requestHash: requestHash(req.body), userId: req.session.userId ?? null });
    if (isPromoRefusal(answer)) await promoGuesses.countRefusal(req);
    send(res, answer);
  });

  // Subscribing needs an account (spec §5 "Subscribing"): signed out is refused before anything else.
  router.post('/payments/subscribe-nonce', requireUser(ctx, SUBSCRIPTION_MESSAGES.loginRequired), failureLimit, promoGuesses.beforeCheckout, async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], IDEMPOTENCY_MESSAGES);
    const input = parseInput(subscribeNonceRequestSchema, req.body);
    const answer = await subscribe(ctx, input, signedInUser(res), { idempotencyKey, requestHash: requestHash(req.body) });
    if (isPromoRefusal(answer)) await promoGuesses.countRefusal(req);
    send(res, answer);
  });

  // The local sandbox's Accept.js-compatible script and tokeniser (only while the sandbox is in use).
  router.get('/payments/sandbox/accept.js', (_req, res) => {
    if (!paymentsFor(ctx).sandbox) throw notFound('The local payment sandbox is not in use.');
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(SANDBOX_ACCEPT_SCRIPT);
  });

  router.post('/payments/sandbox/tokenize', async (req, res) => {
    const sandbox = paymentsFor(ctx).sandbox;
    if (!sandbox) throw notFound('The local payment sandbox is not in use.');
    res.setHeader('Cache-Control', 'no-store');
    res.json(await sandbox.tokenize((req.body ?? {}) as AcceptSecureData));
  });

  return router;
}
