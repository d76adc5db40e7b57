import type { TaxCalculator } from '@nh/server/tax';
import { Router, type RequestHandler, type Response } from 'express';
import { checkoutNonceRequestSchema, checkoutQuoteRequestSchema, subscribeNonceRequestSchema } from '@nh/shared/contracts/checkout';
import { SUBSCRIPTION_TERMS_MESSAGES, SUBSCRIPTION_TERMS_VERSION } from '@nh/shared/contracts/subscription-terms';
import { SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import type { GuestAccess } from '../../lib/guest-access';
import type { AppContext } from '../../lib/context';
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestHash } from '../../lib/idempotency';
import { AppError } from '../../lib/errors';
import { createLimiter } from '../../lib/rate-limit';
import { parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import type { PriceList } from '../catalog/price-list';
import type { Payments } from '../payments/provider';
import type { PromoGuessLimit } from '../promo/guess-limit';
import { quoteCheckout } from './quote';
import { createCheckoutService, IDEMPOTENCY_MESSAGES, type CheckoutAnswer } from './service';

export interface CheckoutModuleDeps {
  payments: Payments;
  priceList: PriceList;
  /** The promo guessing budget, shared with GET /api/promo-codes/validate/{code}. */
  promoGuesses: PromoGuessLimit;
  /** The card-testing guard, shared with every call that sends a card. */
  cardTestingGuard: RequestHandler[];
  /** Sales tax by destination (TAX_MODE). */
  tax: TaxCalculator;
  /** The guest's hour with the order just paid for (its confirmation page). */
  guestAccess: GuestAccess;
}

/** A checkout refused for its promo code (a replayed answer was counted when it was first given). */
const isPromoRefusal = (answer: CheckoutAnswer): boolean => !answer.replayed && (answer.body as { code?: unknown }).code === 'PROMO_INVALID';

function send(res: Response, answer: CheckoutAnswer): void {
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(answer.status).json(answer.body);
}

/**
 * POST /api/checkout/quote: the checkout summary's figures for the address typed so far (./quote.ts).
 *
 * The shop's write path: POST /api/payments/checkout-nonce (an order) and POST
 * /api/payments/subscribe-nonce (the first delivery of a Subscribe & Save plan). The paths stay under
 * /payments, as the spec names them; the gateway itself is the payments module's.
 */
export function checkoutRoutes(ctx: AppContext, deps: CheckoutModuleDeps): Router {
  const router = Router();
  const checkout = createCheckoutService({ pool: ctx.db.$client, gateway: deps.payments.gateway, priceList: deps.priceList, tax: deps.tax, log: ctx.log });
  const { promoGuesses, cardTestingGuard } = deps;

  // The summary's quote (issue 25): asked as the shopper types the address, so a generous budget per
  // client address that still stops a script pricing the catalogue in a loop.
  const quoteLimit = createLimiter(ctx, { name: 'checkout-quotes', windowMs: 60_000, limit: 120, message: 'Too many price checks from this connection. Please wait a minute and try again.' }).middleware;
  router.post('/checkout/quote', quoteLimit, promoGuesses.beforeCheckout, async (req, res) => {
    const input = parseInput(checkoutQuoteRequestSchema, req.body);
    const { quote, promoRefused } = await quoteCheckout({ pool: ctx.db.$client, priceList: deps.priceList, tax: deps.tax }, input);
    if (promoRefused) await promoGuesses.countRefusal(req);
    res.json(quote);
  });

  router.post('/payments/checkout-nonce', ...cardTestingGuard, promoGuesses.beforeCheckout, async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], IDEMPOTENCY_MESSAGES);
    const input = parseInput(checkoutNonceRequestSchema, req.body);
    const answer = await checkout.checkout(input, { idempotencyKey, requestHash: requestHash(req.body), userId: req.session.userId ?? null });
    if (isPromoRefusal(answer)) await promoGuesses.countRefusal(req);
    // A guest's confirmation page (issue 22) reads the order it just paid for, in this browser, for the
    // hour an emailed order link gives (a reload shows it again); a signed-in shopper reads their own.
    const placed = (answer.body as { orderId?: unknown } | null)?.orderId;
    if (answer.status < 300 && typeof placed === 'string' && !req.session.userId) deps.guestAccess.grant(req, res, placed);
    send(res, answer);
  });

  // Subscribing needs an account (spec §5 "Subscribing"): signed out is refused before anything else.
  router.post('/payments/subscribe-nonce', requireUser(ctx, SUBSCRIPTION_MESSAGES.loginRequired), ...cardTestingGuard, promoGuesses.beforeCheckout, async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], IDEMPOTENCY_MESSAGES);
    const input = parseInput(subscribeNonceRequestSchema, req.body);
    const offered = ctx.config.PLAN_CADENCE_MONTHS;
    if (!offered.includes(input.intervalCount)) {
      throw new AppError('VALIDATION_FAILED', SUBSCRIPTION_MESSAGES.cadenceNotOffered(offered), { fields: { intervalCount: SUBSCRIPTION_MESSAGES.cadenceNotOffered(offered) }, offered });
    }
    // Consent on record (issue 22): the checkout that showed other terms than today's is refused, nothing charged.
    if (input.termsVersion !== undefined && input.termsVersion !== SUBSCRIPTION_TERMS_VERSION) {
      throw new AppError('SUBSCRIPTION_TERMS_CHANGED', SUBSCRIPTION_TERMS_MESSAGES.changed, { termsVersion: SUBSCRIPTION_TERMS_VERSION });
    }
    const consent = { agreedAt: new Date(), userAgent: req.get('user-agent')?.slice(0, 500) ?? null, ipAddress: req.ip ?? null };
    const answer = await checkout.subscribe(input, signedInUser(res), { idempotencyKey, requestHash: requestHash(req.body) }, consent);
    if (isPromoRefusal(answer)) await promoGuesses.countRefusal(req);
    send(res, answer);
  });

  return router;
}
