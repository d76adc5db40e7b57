import { Router, type RequestHandler } from 'express';
import {
  changeAddressRequestSchema,
  changeCardRequestSchema,
  changeFrequencyRequestSchema,
  changeItemsRequestSchema,
  pauseSubscriptionRequestSchema,
  rescheduleDeliveryRequestSchema,
  resumeSubscriptionRequestSchema,
  skipDeliveryRequestSchema,
  SUBSCRIPTION_MESSAGES,
  type PlanCadences,
} from '@nh/shared/contracts/subscriptions';
import { cancelSubscriptionRequestSchema } from '@nh/shared/contracts/cancellation';
import type { PaymentGateway } from '@nh/server/payments';
import type { AppContext } from '../../lib/context';
import { parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import type { PricedProduct } from '../catalog';
import { changeCard } from './card';
import { cardLinkRoutes } from './card-link-routes';
import { changeAddress, changeFrequency, changeItems, dismissCadenceSuggestion, moveDelivery, pausePlan, resumePlanOnSavedCard, skipDelivery } from './changes';
import { resume } from './resume';
import { addOnRoutes } from './add-on-routes';
import { cancel, subscriptionsOf } from './service';
import type { TaxCalculator } from '@nh/server/tax';
import { cancellationRoutes } from './cancellation-routes';

export interface SubscriptionDeps {
  /** The gateway that stores a plan's new card (null when card payments are not configured). */
  gateway: PaymentGateway | null;
  /** The card-testing guard, shared with every call that sends a card. */
  cardTestingGuard: RequestHandler[];
  /** The catalogue's prices read fresh (the price list's `get(ids, { fresh: true })`): a plan's new quantities are priced from it. */
  catalogue: (productIds: number[]) => Promise<Map<number, PricedProduct>>;
  /** Sales tax by destination (issue 25): the list's next charge with today's tax for each plan's address. */
  tax: TaxCalculator;
}

/**
 * My Subscriptions: GET /api/subscriptions, and on one plan POST …/{id}/cancel, …/resume (a paused plan
 * with a new card), …/skip, …/reschedule, …/pause ({deliveries?: 1|2|3}), …/unpause (on the saved card), …/card (a new card for
 * an active plan), …/frequency, …/cadence-suggestion/dismiss, PUT …/items and PUT …/address (GET and POST /api/subscriptions/update-card/{token}:
 * a card link staff emailed, ./card-link-routes.ts) (starting a plan, POST /api/payments/subscribe-nonce, is the
 * checkout's). GET /api/subscriptions/cadences (public): the cadences checkout and the product page offer.
 */
export function subscriptionRoutes(ctx: AppContext, { gateway, cardTestingGuard, catalogue, tax }: SubscriptionDeps): Router {
  const router = Router();
  const signedIn = requireUser(ctx, SUBSCRIPTION_MESSAGES.listLoginRequired);
  const { db } = ctx;
  const pool = db.$client;
  const userId = (res: Parameters<typeof signedInUser>[0]) => signedInUser(res).id;
  const id = (params: Record<string, unknown>) => String(params.id);

  router.get('/subscriptions/cadences', (_req, res) => {
    res.json({ months: ctx.config.PLAN_CADENCE_MONTHS } satisfies PlanCadences);
  });

  router.get('/subscriptions', signedIn, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await subscriptionsOf(db, userId(res), ctx.config.PLAN_CADENCE_MONTHS, tax));
  });

  router.post('/subscriptions/:id/cancel', signedIn, async (req, res) => {
    // The spec's empty body still cancels; {reason, comment} are optional (issue 22).
    const input = parseInput(cancelSubscriptionRequestSchema, req.body ?? {});
    res.json(await cancel(db, userId(res), id(req.params), input));
  });

  // Sends a card: signed in first (401 before anything else), then the card-testing guard.
  router.post('/subscriptions/:id/resume', signedIn, ...cardTestingGuard, async (req, res) => {
    const input = parseInput(resumeSubscriptionRequestSchema, req.body);
    res.json(await resume({ pool, gateway, log: ctx.log }, userId(res), id(req.params), input));
  });

  router.post('/subscriptions/:id/card', signedIn, ...cardTestingGuard, async (req, res) => {
    const input = parseInput(changeCardRequestSchema, req.body);
    res.json(await changeCard({ db, gateway, log: ctx.log }, userId(res), id(req.params), input));
  });

  router.post('/subscriptions/:id/skip', signedIn, async (req, res) => {
    const { period } = parseInput(skipDeliveryRequestSchema, req.body);
    res.json(await skipDelivery(db, userId(res), id(req.params), period));
  });

  router.post('/subscriptions/:id/reschedule', signedIn, async (req, res) => {
    const { nextBillingDate } = parseInput(rescheduleDeliveryRequestSchema, req.body);
    res.json(await moveDelivery(db, userId(res), id(req.params), nextBillingDate));
  });

  router.post('/subscriptions/:id/pause', signedIn, async (req, res) => {
    const { deliveries } = parseInput(pauseSubscriptionRequestSchema, req.body ?? {});
    res.json(await pausePlan(db, userId(res), id(req.params), deliveries));
  });

  router.post('/subscriptions/:id/unpause', signedIn, async (req, res) => {
    res.json(await resumePlanOnSavedCard(db, userId(res), id(req.params)));
  });

  router.post('/subscriptions/:id/frequency', signedIn, async (req, res) => {
    const { intervalCount } = parseInput(changeFrequencyRequestSchema, req.body);
    res.json(await changeFrequency(db, userId(res), id(req.params), intervalCount, ctx.config.PLAN_CADENCE_MONTHS));
  });

  router.post('/subscriptions/:id/cadence-suggestion/dismiss', signedIn, async (req, res) => {
    res.json(await dismissCadenceSuggestion(db, userId(res), id(req.params), ctx.config.PLAN_CADENCE_MONTHS));
  });

  router.put('/subscriptions/:id/items', signedIn, async (req, res) => {
    const input = parseInput(changeItemsRequestSchema, req.body);
    res.json(await changeItems(db, catalogue, userId(res), id(req.params), input));
  });

  router.put('/subscriptions/:id/address', signedIn, async (req, res) => {
    const address = parseInput(changeAddressRequestSchema, req.body);
    res.json(await changeAddress(db, userId(res), id(req.params), address));
  });

  // The card link staff email (no session: the token is the credential).
  router.use(cardLinkRoutes(ctx, { gateway, cardTestingGuard }));
  router.use(addOnRoutes(ctx, signedIn, catalogue));
  router.use(cancellationRoutes(ctx, signedIn));

  return router;
}
