/**
 * A plan's new card through the link staff emailed (GET and POST /api/subscriptions/update-card/{token}),
 * without signing in: the token in the path is the credential (only its SHA-256 is stored). The page
 * shows the plan's summary and its card masked; the card is tokenised in the browser as everywhere else
 * and stored as a new payment profile (./store-card.ts), then:
 * - a plan paused because its renewal could not be paid (or with no saved card) is resumed exactly as
 *   "Resume with a new card" resumes it (./resume.ts: active again, the unpaid delivery charged at once);
 * - any other plan (active, in dunning or not, or paused by choice with its payments in order) gets the
 *   card as "Change Card" gives it (./card.ts newCardDecision: not charged now, the next renewal or retry
 *   charges it; a plan paused by choice stays paused), the link spent in the same transaction.
 * docs/decisions/subscriptions.md ("Staff on the customer's behalf").
 */
import { CHECKOUT_MESSAGES } from '@nh/shared/contracts/checkout';
import { PLAN_CARD_LINK_MESSAGES as LINK, type PlanCardLinkRequest, type PlanCardLinkResult, type PlanCardLinkView } from '@nh/shared/contracts/plan-card-link';
import { SUBSCRIPTION_MESSAGES as MSG } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { PaymentGateway } from '@nh/server/payments';
import { findPlanCardLink, type PlanCardLinkWithPlan } from '@nh/server/queries/subscriptions/card-links';
import { findPlanToResume } from '@nh/server/queries/subscriptions/shopper';
import { hashSingleUseToken, spendSingleUseLink } from '@nh/server/queries/single-use-tokens';
import { AppError } from '../../lib/errors';
import { newCardDecision } from './card';
import { changePlan } from './changes';
import { hasEnded, refuseWhilePeriodBusy, resumableOnSavedCard } from './plan-rules';
import { resume } from './resume';
import { storePlanCard } from './store-card';

/** A token as a link carries it (base64url, 43 characters); anything else is not a link of ours. */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** The link's row and plan while it is open; unknown, spent and expired each answered with its own message. */
async function openLink(pool: Db['$client'], token: string): Promise<PlanCardLinkWithPlan> {
  const link = TOKEN.test(token) ? await findPlanCardLink(pool, hashSingleUseToken(token)) : null;
  if (!link || !link.user_id) throw new AppError('PLAN_CARD_LINK_INVALID', LINK.invalid);
  if (link.used_at) throw new AppError('PLAN_CARD_LINK_USED', LINK.used);
  if (link.expires_at.getTime() <= Date.now()) throw new AppError('PLAN_CARD_LINK_EXPIRED', LINK.expired);
  if (hasEnded(link)) throw new AppError('SUBSCRIPTION_ENDED', LINK.planEnded);
  return link;
}

/** Saving a card restarts the plan (as "Resume with a new card"): paused, and not resumable on its saved card. */
const resumesOnSave = (link: PlanCardLinkWithPlan) =>
  link.status === 'paused' && !resumableOnSavedCard({ status: link.status, failedAttempts: link.failed_attempts }, link.has_stored_card);

export async function viewCardLink(db: Db, token: string): Promise<PlanCardLinkView> {
  const link = await openLink(db.$client, token);
  return {
    status: link.status,
    productNames: link.items.map((i) => i.productName),
    amount: link.amount,
    interval: link.interval,
    intervalCount: link.interval_count,
    nextBillingDate: link.next_billing_date.toISOString(),
    cardType: link.card_last_four ? link.card_type : null,
    cardLastFour: link.card_last_four,
    resumesOnSave: resumesOnSave(link),
    expiresAt: link.expires_at.toISOString(),
  };
}

export interface CardLinkDeps {
  db: Db;
  gateway: PaymentGateway | null;
  log: Logger;
}

/** Stores the card on the link's plan and spends the link (see above); a refused card leaves the link open for another try. */
export async function updateCardByLink({ db, gateway, log }: CardLinkDeps, token: string, card: PlanCardLinkRequest): Promise<PlanCardLinkResult> {
  const link = await openLink(db.$client, token);
  const userId = link.user_id!;
  const id = link.subscription_id;

  if (resumesOnSave(link)) {
    const resumed = await resume({ pool: db.$client, gateway, log }, userId, id, card);
    // Spent once the plan is resumed (a refused card keeps the link usable). A second tab racing this one
    // finds the plan active and is refused when it spends the link in its change's transaction.
    if (!(await spendSingleUseLink(db, 'plan_card_links', link.id))) log.warn({ subscriptionId: id }, 'card link spent by another request while this one resumed the plan');
    return { status: resumed.status, cardType: resumed.cardType, cardLastFour: resumed.cardLastFour, resumed: true };
  }

  const plan = await findPlanToResume(db.$client, id, userId);
  if (!plan) throw new AppError('PLAN_CARD_LINK_INVALID', LINK.invalid);
  if (!plan.shipping_address) throw new AppError('SUBSCRIPTION_NOT_RESUMABLE', MSG.noAddress);
  if (!gateway) throw new AppError('PAYMENTS_UNAVAILABLE', CHECKOUT_MESSAGES.paymentsUnavailable);
  const stored = await storePlanCard({ gateway, log }, userId, id, { ...plan, shipping_address: plan.shipping_address }, card);
  try {
    const view = await changePlan(db, userId, id, async ({ row, periodCharge }, tx) => {
      if (hasEnded(row)) throw new AppError('SUBSCRIPTION_ENDED', LINK.planEnded);
      // Today's charge is under way on the old card: the customer would be told the new one pays for it.
      refuseWhilePeriodBusy(periodCharge, MSG);
      if (!(await spendSingleUseLink(tx, 'plan_card_links', link.id))) throw new AppError('PLAN_CARD_LINK_USED', LINK.used);
      return newCardDecision(stored);
    });
    return { status: view.status, cardType: view.cardType, cardLastFour: view.cardLastFour, resumed: false };
  } catch (error) {
    log.warn({ subscriptionId: id, profile: stored.profile }, 'plan changed or link spent while its new card was stored; card profile left unused');
    throw error;
  }
}
