/**
 * The confirmation of a change a shopper made to their plan on My Subscriptions (skip, a new date,
 * pause, resume, a new card, new quantities or added products): what changed, and the next delivery's
 * date, amount and lines as the change wrote them (the outbox row is written in the change's transaction),
 * so the email says what the renewal will do. Not sent for a plan cancelled since.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS, outboxPayloads } from '@nh/shared/contracts/outbox';
import { formatCents, type Cents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { nextBillingDate, pausedWords, type ShopperPlanChange } from '@nh/shared/contracts/subscriptions';
import { ONE_TIME_ITEM_PRICE_NOTE } from '@nh/shared/contracts/ship-now-add-ons';
import { defineEmail, skip } from './define-email';
import type { Content } from './mail/layout';
import { addressWords, billingDay, loadSubscription, planCadence, planChangeContent, type SubscriptionEmailPlan } from './subscription-plan';
import { cardEnding } from '@nh/shared/cards';

type Payload = z.infer<(typeof outboxPayloads)[typeof OUTBOX_TOPICS.subscriptionChanged]>;

export interface ShopperChangeEmail extends SubscriptionEmailPlan {
  change: ShopperPlanChange;
  /** After the change. */
  status: string;
  nextBillingDate: Date;
  amount: Cents;
}

/** Subject id `<subscription id>:<change id>`: one email per change, however often the job runs. */
export const email = defineEmail({
  name: 'subscription-changed',
  payload: outboxPayloads[OUTBOX_TOPICS.subscriptionChanged],
  topics: { [OUTBOX_TOPICS.subscriptionChanged]: (payload: Payload) => payload },
  async compose(db, p) {
    const found = await loadSubscription(db, p.subscriptionId);
    if (!found) return skip('subscription not found');
    if (found.sub.status === 'cancelled' || found.sub.status === 'expired') return skip('subscription ended since');
    // The lines as the change wrote them (a later change must not show here); rows written before carry none.
    const items = p.items ?? found.plan.items;
    const content = subscriptionChangedEmail({ ...found.plan, items, change: p.change, status: p.status, nextBillingDate: new Date(p.nextBillingDate), amount: p.amount });
    return { subjectId: `${p.subscriptionId}:${p.changeId}`, message: { to: found.sub.customerEmail, ...content } };
  },
});

const cardWords = (cardType: string | null, lastFour: string | null) => (lastFour ? `your ${cardEnding(cardType, lastFour, { joiner: 'ending in', brandless: 'card' })}` : 'your new card');

/** The subject and the opening sentences of each change. */
function wording(e: ShopperChangeEmail): { subject: string; lines: string[] } {
  const plan = `Subscribe & Save plan`;
  const next = `Your next delivery is on ${billingDay(e.nextBillingDate)}: we will charge ${formatCents(e.amount)} to your saved card that day.`;
  const change = e.change;
  switch (change.kind) {
    case 'skipped':
      return {
        subject: `You skipped your next ${SHOP.name} delivery`,
        lines: [`Your delivery due ${billingDay(new Date(`${change.period}T00:00:00Z`))} is skipped: it will not be sent or charged.`, next],
      };
    case 'rescheduled':
      return {
        subject: `Your next ${SHOP.name} delivery is now on ${billingDay(e.nextBillingDate)}`,
        lines: [`You moved your next delivery from ${billingDay(new Date(change.from))} to ${billingDay(e.nextBillingDate)}.`, next, `Later deliveries follow ${planCadence(e.interval, e.intervalCount)} from then.`],
      };
    case 'frequency': {
      const cadence = planCadence('monthly', change.intervalCount);
      return {
        subject: `Your ${SHOP.name} deliveries now come ${cadence}`,
        lines: [`You changed your plan from ${planCadence('monthly', change.fromIntervalCount)} to ${cadence}.`, next, `Later deliveries follow ${cadence} from then.`],
      };
    }
    case 'paused':
      return {
        subject: `Your ${SHOP.name} ${plan} is paused`,
        // The page's sentence (pausedWords), so the email and My Subscriptions say the same.
        lines: [pausedWords({ by: 'shopper', reason: null }, change.resumesOn ?? null), 'You can resume it any time in My Subscriptions.'],
      };
    case 'resumed':
      return {
        subject: `Your ${SHOP.name} ${plan} is active again`,
        lines: [
          change.automatic ? 'Your pause has ended as you planned, so your plan is active again.' : 'You resumed your plan.',
          ...(change.skippedWhilePaused > 0 ? ['The deliveries that fell due while it was paused were skipped: they will not be sent or charged.'] : []),
          next,
        ],
      };
    case 'card':
      return {
        subject: `The card for your ${SHOP.name} ${plan} is changed`,
        lines: [
          `Your plan now uses ${cardWords(change.cardType, change.cardLastFour)}. You have not been charged for this change.`,
          e.status === 'active' ? `Your next delivery is on ${billingDay(e.nextBillingDate)}: we will charge ${formatCents(e.amount)} to ${cardWords(change.cardType, change.cardLastFour)} that day.` : '',
        ].filter(Boolean),
      };
    case 'address':
      return {
        subject: `Your ${SHOP.name} deliveries have a new address`,
        lines: [`From your next delivery on, your plan ships to: ${addressWords(change.address)}.`, next],
      };
    case 'items':
      return {
        subject: `Your ${SHOP.name} ${plan} is updated`,
        lines: [
          `You changed the items of your plan. Each delivery is now ${formatCents(e.amount)} (it was ${formatCents(change.fromAmount)}), at today's prices with your discount.`,
          ...(change.added?.length ? [`You added: ${change.added.map((line) => `${line.quantity} x ${line.productName}`).join(', ')}.`] : []),
          next,
        ],
      };
    // Issue 21: the payload's next billing date is today's (the delivery charged now); the one after it follows the cadence.
    case 'ship-now':
      return {
        subject: `Your next ${SHOP.name} delivery ships today`,
        lines: [
          `As you asked, we are charging your next delivery to your saved card now, and it ships today. You will get the order confirmation once it is charged.`,
          `After it, your next delivery is on ${billingDay(nextBillingDate(e.nextBillingDate, e.interval, e.intervalCount))}, then ${planCadence(e.interval, e.intervalCount)} from then.`,
        ],
      };
    case 'one-time-added':
      return {
        subject: `${change.productName} is added to your next ${SHOP.name} delivery`,
        lines: [`You added ${change.quantity} x ${change.productName} to your next delivery only. ${ONE_TIME_ITEM_PRICE_NOTE}`, `Your next delivery is on ${billingDay(e.nextBillingDate)}.`],
      };
    case 'one-time-removed':
      return {
        subject: `${change.productName} is removed from your next ${SHOP.name} delivery`,
        lines: [`You removed ${change.quantity} x ${change.productName} from your next delivery.`, next],
      };
    case 'discount':
      return {
        subject: `${change.percent}% off your next ${SHOP.name} delivery`,
        lines: [`Thank you for staying with us: your next delivery is ${change.percent}% off, once. Later deliveries are at your plan's usual price.`, next],
      };
  }
}

/** Sent when a shopper changes their plan on My Subscriptions. */
export function subscriptionChangedEmail(e: ShopperChangeEmail): Content {
  const { subject, lines } = wording(e);
  const contact = `If you did not make this change, contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone} (${SHOP.supportHours}).`;
  return planChangeContent({ subject, lines, plan: e, seeYourPlan: 'You can see or change your plan', contact });
}
