/**
 * A change staff made to a customer's plan in the back office (pause, resume, skip the next delivery,
 * a new date, a new cadence, new items, a new delivery address, cancel, a product swapped in a bulk swap): what changed, in the customer's words. The email reads the change's audit row
 * (its action, before and after), so it says exactly what was recorded.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { formatCents, toCents, type Cents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { billingPeriodOf, pausedWords } from '@nh/shared/contracts/subscriptions';
import { chargeableAmount } from '@nh/shared/subscriptions/agreed-price';
import { findAuditChange } from '@nh/server/queries/email-context';
import { defineEmail, skip } from './define-email';
import type { Content } from './mail/layout';
import { addressWords, billingDay, loadSubscription, planCadence, planChangeContent, type SubscriptionEmailPlan } from './subscription-plan';
import { nextBillingDate } from '@nh/shared/contracts/subscriptions';
import { ONE_TIME_ITEM_PRICE_NOTE } from '@nh/shared/contracts/ship-now-add-ons';

/** What staff did, as the email tells it. */
export type StaffChange =
  | { kind: 'paused'; reason: string | null }
  | { kind: 'resumed'; nextBillingDate: Date; skippedWhilePaused: number }
  | { kind: 'skipped'; period: string; nextBillingDate: Date }
  | { kind: 'rescheduled'; from: Date; to: Date }
  | { kind: 'frequency'; from: number; to: number; nextBillingDate: Date }
  | { kind: 'items'; fromAmount: number; toAmount: number; added: Array<{ productName: string; quantity: number }>; nextBillingDate: Date }
  | { kind: 'address'; address: { address: string; city: string; state: string; zip: string } }
  | { kind: 'cancelled' }
  | { kind: 'ship-now'; nextAfter: Date }
  | { kind: 'one-time-added' | 'one-time-removed'; productName: string; quantity: number }
  /** A bulk swap: the lines swapped away, the one swapped in, the amount before and after (issue 21). */
  | { kind: 'swapped'; removed: SwapLine[]; added: SwapLine; fromAmount: Cents; amount: Cents };

type SwapLine = { productName: string; quantity: number };

const iso = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const skippedAfter = z.object({ skippedPeriod: z.string(), nextBillingDate: iso });
const dateChange = z.object({ nextBillingDate: iso });
const cadenceChange = z.object({ intervalCount: z.number().int().positive(), nextBillingDate: iso });
const itemsChange = z.object({ amount: z.number().int(), added: z.array(z.object({ productName: z.string(), quantity: z.number().int() })).optional() });
const addressChange = z.object({ shippingAddress: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }) });
const swapLine = z.object({ productName: z.string(), quantity: z.number().int() });
const swapBefore = z.object({ items: z.array(swapLine), amount: z.string() });
const swapAfter = z.object({ items: z.array(swapLine).min(1), amount: z.string() });
const pausedAfter = z.object({ reason: z.string().optional() });
const oneTimeLine = z.object({ productName: z.string(), quantity: z.number().int() });
const resumedAfter = z.object({ nextBillingDate: iso.optional(), skippedPeriods: z.array(z.string()).optional() });

/** The change from its audit row; null for an action this email does not know (from a later release). */
export function staffChangeOf(action: string, before: unknown, after: unknown, currentNextBillingDate: Date, plan?: Pick<SubscriptionEmailPlan, 'interval' | 'intervalCount'>): StaffChange | null {
  switch (action) {
    case 'subscription.shipped_now': {
      // Today's delivery (the moved date, or the plan's own when it was due): the one after it follows the cadence.
      const today = z.object({ nextBillingDate: iso.optional(), period: z.string() }).parse(after);
      const charged = today.nextBillingDate ?? new Date(`${today.period}T00:00:00Z`);
      return { kind: 'ship-now', nextAfter: nextBillingDate(charged, plan?.interval ?? 'monthly', plan?.intervalCount ?? 1) };
    }
    case 'subscription.one_time_item_added':
      return { kind: 'one-time-added', ...oneTimeLine.parse(after) };
    case 'subscription.one_time_item_removed':
      return { kind: 'one-time-removed', ...oneTimeLine.parse(before) };
    case 'subscription.paused':
      return { kind: 'paused', reason: pausedAfter.parse(after ?? {}).reason ?? null };
    case 'subscription.cancelled':
      return { kind: 'cancelled' };
    case 'subscription.resumed': {
      const a = resumedAfter.parse(after ?? {});
      return { kind: 'resumed', nextBillingDate: a.nextBillingDate ?? currentNextBillingDate, skippedWhilePaused: a.skippedPeriods?.length ?? 0 };
    }
    case 'subscription.skipped': {
      const a = skippedAfter.parse(after);
      return { kind: 'skipped', period: a.skippedPeriod, nextBillingDate: a.nextBillingDate };
    }
    case 'subscription.rescheduled':
      return { kind: 'rescheduled', from: dateChange.parse(before).nextBillingDate, to: dateChange.parse(after).nextBillingDate };
    case 'subscription.frequency_changed': {
      const a = cadenceChange.parse(after);
      return { kind: 'frequency', from: cadenceChange.parse(before).intervalCount, to: a.intervalCount, nextBillingDate: a.nextBillingDate };
    }
    case 'subscription.items_changed': {
      const a = itemsChange.parse(after);
      return { kind: 'items', fromAmount: itemsChange.parse(before).amount, toAmount: a.amount, added: a.added ?? [], nextBillingDate: currentNextBillingDate };
    }
    case 'subscription.address_changed':
      return { kind: 'address', address: addressChange.parse(after).shippingAddress };
    case 'subscription.bulk_swapped': {
      const b = swapBefore.parse(before);
      const a = swapAfter.parse(after);
      return { kind: 'swapped', removed: b.items, added: a.items[0]!, fromAmount: toCents(b.amount), amount: toCents(a.amount) };
    }
    default:
      return null;
  }
}

/** Subject id: `<subscription id>:<audit row id>`: one email per change, however often the job runs. */
export const email = defineEmail({
  name: 'subscription-staff-change',
  /** `auditId`: the change's audit row. */
  payload: z.object({ subscriptionId: z.string().uuid(), auditId: z.number().int().positive() }),
  topics: { [OUTBOX_TOPICS.subscriptionChangedByStaff]: ({ subscriptionId, auditId }) => ({ subscriptionId, auditId }) },
  async compose(db, { subscriptionId, auditId }) {
    const event = await findAuditChange(db, auditId);
    if (!event || event.entityType !== 'subscription' || event.entityId !== subscriptionId) return skip('change not found');
    const found = await loadSubscription(db, subscriptionId);
    if (!found) return skip('subscription not found');
    const change = staffChangeOf(event.action, event.before, event.after, found.sub.nextBillingDate, found.plan);
    if (!change) return skip(`no email for ${event.action}`);
    // What a delivery will really be charged: the agreed price until a price-change notice's first day.
    const content = subscriptionStaffChangeEmail({ ...found.plan, change, amountOn: (date) => chargeableAmount(found.sub, billingPeriodOf(date)) });
    return { subjectId: `${subscriptionId}:${auditId}`, message: { to: found.sub.customerEmail, ...content } };
  },
});

/** The subject and the opening sentences of each change. */
function wording(plan: StaffChangePlan, change: StaffChange): { subject: string; lines: string[] } {
  const yourPlan = `your ${SHOP.name} Subscribe & Save plan`;
  const charge = (date: Date) => `we will charge ${formatCents(plan.amountOn?.(date) ?? plan.amount)} to your saved card on ${billingDay(date)}`;
  switch (change.kind) {
    case 'paused':
      return {
        subject: `Your ${SHOP.name} Subscribe & Save plan is paused`,
        // The page's sentence (pausedWords): who paused it and why, the same on My Subscriptions.
        lines: [pausedWords({ by: 'shop', reason: change.reason }, null), 'You can resume it any time in My Subscriptions, or contact us and we will restart it.'],
      };
    case 'resumed':
      return {
        subject: `Your ${SHOP.name} Subscribe & Save plan is active again`,
        lines: [
          `As you asked, we have restarted ${yourPlan}. Your next delivery is on ${billingDay(change.nextBillingDate)}: ${charge(change.nextBillingDate)}.`,
          ...(change.skippedWhilePaused > 0 ? ['The deliveries that fell due while it was paused were skipped: they will not be sent or charged.'] : []),
        ],
      };
    case 'skipped':
      return {
        subject: `We skipped your next ${SHOP.name} Subscribe & Save delivery`,
        lines: [
          `As you asked, we have skipped your delivery due ${billingDay(new Date(`${change.period}T00:00:00Z`))}: it will not be sent or charged.`,
          `Your next delivery is on ${billingDay(change.nextBillingDate)}: ${charge(change.nextBillingDate)}.`,
        ],
      };
    case 'rescheduled':
      return {
        subject: `Your next ${SHOP.name} delivery is now on ${billingDay(change.to)}`,
        lines: [
          `As you asked, we have moved your next delivery from ${billingDay(change.from)} to ${billingDay(change.to)}: ${charge(change.to)}.`,
          `Later deliveries follow ${planCadence(plan.interval, plan.intervalCount)} from then.`,
        ],
      };
    case 'frequency': {
      const cadence = planCadence('monthly', change.to);
      return {
        subject: `Your ${SHOP.name} deliveries now come ${cadence}`,
        lines: [
          `As you asked, we have changed ${yourPlan} from ${planCadence('monthly', change.from)} to ${cadence}.`,
          `Your next delivery is on ${billingDay(change.nextBillingDate)}: ${charge(change.nextBillingDate)}.`,
        ],
      };
    }
    case 'items':
      return {
        subject: `Your ${SHOP.name} Subscribe & Save plan is updated`,
        lines: [
          `As you asked, we have changed the items of ${yourPlan}. Each delivery is now ${formatCents(change.toAmount)} (it was ${formatCents(change.fromAmount)}), at today's prices with your discount.`,
          ...(change.added.length ? [`We added: ${change.added.map((line) => `${line.quantity} x ${line.productName}`).join(', ')}.`] : []),
          `Your next delivery is on ${billingDay(change.nextBillingDate)}: ${charge(change.nextBillingDate)}.`,
        ],
      };
    case 'address':
      return {
        subject: `Your ${SHOP.name} deliveries have a new address`,
        lines: [`As you asked, from your next delivery on ${yourPlan} ships to: ${addressWords(change.address)}.`],
      };
    case 'swapped': {
      const names = (lines: SwapLine[]) => lines.map((line) => `${line.quantity} x ${line.productName}`).join(', ');
      return {
        subject: `A product in your ${SHOP.name} Subscribe & Save plan has changed`,
        lines: [
          `We have replaced ${names(change.removed)} in ${yourPlan} with ${names([change.added])}.`,
          `Each delivery is now ${formatCents(change.amount)} (it was ${formatCents(change.fromAmount)}), at today's price with your discount.`,
        ],
      };
    }
    case 'ship-now':
      return {
        subject: `Your next ${SHOP.name} delivery ships today`,
        lines: [
          `As you asked, we are charging your next delivery to your saved card now, and it ships today. You will get the order confirmation once it is charged.`,
          `After it, your next delivery is on ${billingDay(change.nextAfter)}: ${charge(change.nextAfter)}.`,
        ],
      };
    case 'one-time-added':
      return {
        subject: `${change.productName} is added to your next ${SHOP.name} delivery`,
        lines: [`As you asked, we have added ${change.quantity} x ${change.productName} to your next delivery only. ${ONE_TIME_ITEM_PRICE_NOTE}`],
      };
    case 'one-time-removed':
      return {
        subject: `${change.productName} is removed from your next ${SHOP.name} delivery`,
        lines: [`As you asked, we have removed ${change.quantity} x ${change.productName} from your next delivery.`],
      };
    case 'cancelled':
      return {
        subject: `Your ${SHOP.name} Subscribe & Save plan is cancelled`,
        lines: [`As you asked, we have cancelled ${yourPlan}. No further deliveries will be sent or charged.`, 'Thank you for having been a subscriber; you are welcome back any time.'],
      };
  }
}

/** Sent when staff change a customer's plan on their behalf. */
/** The plan as the email tells it; `amountOn`: the amount a delivery on that day is charged (plan.amount when absent). */
type StaffChangePlan = SubscriptionEmailPlan & { amountOn?: (date: Date) => Cents };

export function subscriptionStaffChangeEmail(plan: StaffChangePlan & { change: StaffChange }): Content {
  const { subject, lines } = wording(plan, plan.change);
  const reachUs = `contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone} (${SHOP.supportHours})`;
  // A bulk swap was the shop's own change to many plans, not one asked for by this customer.
  if (plan.change.kind === 'swapped')
    return planChangeContent({ subject, lines, plan, seeYourPlan: 'You can see or change your plan', contact: `If you would rather have something else, change your plan or ${reachUs}.` });
  const contact = `If you did not ask for this, or want something else, ${reachUs}.`;
  return planChangeContent({ subject, lines, plan, seeYourPlan: 'This change was made by our customer care team on your behalf. You can see your plan', contact });
}
