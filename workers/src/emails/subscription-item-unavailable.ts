/**
 * The heads-up before a renewal that could not ship: an item of the plan is out of stock or no longer
 * sold (added by the daily renewal sweep for plans billed in the next SUBSCRIPTION_HEADS_UP_DAYS days).
 */
import { z } from 'zod';
import { SHOP } from '@nh/shared/constants';
import { formatCents } from '@nh/shared/money';
import { UNAVAILABLE_ITEM_PROBLEM_LABELS, type UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { unavailableItemsOf } from '@nh/server/queries/subscriptions/plan';
import { jobId } from '@nh/server/jobs/contract';
import { nextDeliveryCharge } from './next-charge';
import { defineEmail, skip } from './define-email';
import { actionLinksHtml, actionLinksText, withActionLinks, type ActionLink } from './email-action-links';
import { escapeHtml, layout, mySubscriptionsLink, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { billingDay, loadSubscription, type SubscriptionEmailPlan } from './subscription-plan';

/** Subject id: `<subscription id>:<billing period>`: one heads-up per plan and period however often the sweep finds it. */
export const email = defineEmail({
  name: 'subscription-item-unavailable',
  /** `period`: the billing period (yyyy-MM-dd, UTC, of the next billing date) whose delivery is at risk. */
  payload: z.object({ subscriptionId: z.string().uuid(), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  /** One job per (plan, period): the sweeps of the days before the billing date add nothing more. */
  jobId: (subscriptionId: string, period: string) => jobId('headsup-item', subscriptionId, period),
  async compose(db, { subscriptionId, period }, { tax }) {
    const found = await loadSubscription(db, subscriptionId);
    if (!found) return skip('subscription not found');
    // Judged when sending: a plan paused, cancelled or moved since, or whose items are back, is not told.
    if (found.sub.status !== 'active') return skip(`subscription is ${found.sub.status}`);
    if (billingPeriodOf(found.sub.nextBillingDate) !== period) return skip('the billing date has moved');
    if (period < billingPeriodOf(new Date())) return skip('the billing date has passed');
    const unavailable = await unavailableItemsOf(db.$client, subscriptionId);
    if (unavailable.length === 0) return skip('every item is available again');
    // What the delivery would charge, with today's tax for the plan's address (issue 25).
    const { charge } = await nextDeliveryCharge(db, tax, found.sub);
    // One-click links that wait for the item: skip this delivery, or delay it two weeks.
    return withActionLinks({
      subjectId: `${subscriptionId}:${period}`,
      to: found.sub.customerEmail,
      subscriptionId,
      periodDate: period,
      choices: [{ action: 'skip' }, { action: 'delay' }],
      message: (actions) => subscriptionItemUnavailableEmail({ ...found.plan, amount: charge, nextBillingDate: found.sub.nextBillingDate, unavailable, actions }),
    });
  },
});

const itemLine = (item: UnavailableItem) => `${item.productName}: ${UNAVAILABLE_ITEM_PROBLEM_LABELS[item.problem].toLowerCase()}`;

/** A few days before the billing date: which items cannot be sent, what happens if they are still missing, what to do. */
export function subscriptionItemUnavailableEmail(plan: SubscriptionEmailPlan & { nextBillingDate: Date; unavailable: UnavailableItem[]; actions?: ActionLink[] }): Content {
  const actions = plan.actions ?? [];
  const next = billingDay(plan.nextBillingDate);
  const subject = 'Heads-up: an item of your next delivery is unavailable';
  const what = `If it is still unavailable on ${next}, we will not charge you the ${formatCents(plan.amount)} for that delivery and will try again over the following days; if it still cannot be sent, we will pause your plan and let you know.`;
  const options = `To swap the item, skip this delivery or change your plan, contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone} (${SHOP.supportHours}).`;
  const text = [
    `Hi ${plan.customerName},`,
    '',
    `A heads-up about your next Subscribe & Save delivery on ${next}: we cannot send everything in it right now.`,
    '',
    ...plan.unavailable.map((item) => `  ${itemLine(item)}`),
    '',
    what,
    options,
    `You can see or cancel your plan in My Subscriptions: ${mySubscriptionsUrl()}`,
    ...actionLinksText(actions),
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>A heads-up about your next Subscribe &amp; Save delivery on <strong>${escapeHtml(next)}</strong>: we cannot send everything in it right now.</p>
<ul>${plan.unavailable.map((item) => `<li>${escapeHtml(itemLine(item))}</li>`).join('')}</ul>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(options)}</p>
<p>You can see or cancel your plan in ${mySubscriptionsLink()}.</p>${actionLinksHtml(actions)}`,
  );
  return { subject, text, html };
}
