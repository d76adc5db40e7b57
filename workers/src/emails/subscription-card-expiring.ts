/**
 * The heads-up before a renewal the stored card will not be good for: the card expires (the last day of
 * its expiry month) before the plan's next billing date. Added by the daily renewal sweep for active
 * plans billed in the next SUBSCRIPTION_HEADS_UP_DAYS days; once per plan and card.
 *
 * What the customer can do is what the storefront offers: "Change Card" on the plan in My Subscriptions
 * (a new card for an active plan, issue 13), or contacting us; and what happens if nothing is done.
 */
import { z } from 'zod';
import { SHOP } from '@nh/shared/constants';
import { formatCents } from '@nh/shared/money';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { jobId } from '@nh/server/jobs/contract';
import { nextDeliveryCharge } from './next-charge';
import { defineEmail, skip } from './define-email';
import { actionLinksHtml, actionLinksText, withActionLinks, type ActionLink } from './email-action-links';
import { escapeHtml, layout, mySubscriptionsLink, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { billingDay, loadSubscription, type SubscriptionEmailPlan } from './subscription-plan';

/** Subject id: `<subscription id>:<payment profile id>`: one heads-up per plan and card however often the sweep finds it. */
export const email = defineEmail({
  name: 'subscription-card-expiring',
  /** `paymentProfileId`: the stored card (payment profile) that expires before the next billing date. */
  payload: z.object({ subscriptionId: z.string().uuid(), paymentProfileId: z.string().min(1) }),
  /** One job per (plan, card): the sweeps of the days before the billing date add nothing more. */
  jobId: (subscriptionId: string, paymentProfileId: string) => jobId('headsup-card', subscriptionId, paymentProfileId),
  async compose(db, { subscriptionId, paymentProfileId }, { tax }) {
    const found = await loadSubscription(db, subscriptionId);
    if (!found) return skip('subscription not found');
    const { sub } = found;
    // Judged when sending: a plan paused, cancelled, given another card or moved to a day the card is good for is not told.
    if (sub.status !== 'active') return skip(`subscription is ${sub.status}`);
    if (sub.authnetPaymentProfileId !== paymentProfileId) return skip('the plan has another card now');
    if (!sub.cardExpiresOn) return skip('the card expiry is not known');
    const period = billingPeriodOf(sub.nextBillingDate);
    if (period < billingPeriodOf(new Date())) return skip('the billing date has passed');
    if (sub.cardExpiresOn >= period) return skip('the card is good on the next billing date');
    const cardExpiresOn = sub.cardExpiresOn;
    // The payment at risk: what the delivery will charge, with today's tax for the plan's address (issue 25).
    const { charge } = await nextDeliveryCharge(db, tax, sub);
    // One-click links that buy time for a new card: skip this delivery, or delay it two weeks.
    return withActionLinks({
      subjectId: `${subscriptionId}:${paymentProfileId}`,
      to: sub.customerEmail,
      subscriptionId,
      periodDate: period,
      choices: [{ action: 'skip' }, { action: 'delay' }],
      message: (actions) => subscriptionCardExpiringEmail({ ...found.plan, amount: charge, nextBillingDate: sub.nextBillingDate, cardExpiresOn, actions }),
    });
  },
});

/** "December 2026": the month a card is good through (card_expires_on is its last day). */
export const expiryMonth = (cardExpiresOn: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(new Date(`${cardExpiresOn}T00:00:00Z`));

/** A few days before the billing date: the card expires first, what happens then, and how to give us a new one. */
export function subscriptionCardExpiringEmail(plan: SubscriptionEmailPlan & { nextBillingDate: Date; cardExpiresOn: string; actions?: ActionLink[] }): Content {
  const actions = plan.actions ?? [];
  const next = billingDay(plan.nextBillingDate);
  const month = expiryMonth(plan.cardExpiresOn);
  const subject = 'Heads-up: your saved card expires before your next delivery';
  const intro = `A heads-up about your next Subscribe & Save delivery on ${next}: the card saved for your plan expires at the end of ${month}, before that day, so the payment of ${formatCents(plan.amount)} for it will likely be declined.`;
  const change = `To use a new card: sign in and choose "Change Card" on the plan in My Subscriptions before ${next}; your deliveries carry on with the new card. If you need help, contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone} (${SHOP.supportHours}).`;
  const otherwise = `If nothing changes, we will try the payment again over the following days; if it still cannot be taken, we will pause your plan and let you know, and you can then resume it with a new card in My Subscriptions.`;
  const text = [`Hi ${plan.customerName},`, '', intro, '', change, '', otherwise, `My Subscriptions: ${mySubscriptionsUrl()}`, ...actionLinksText(actions), '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>A heads-up about your next Subscribe &amp; Save delivery on <strong>${escapeHtml(next)}</strong>: the card saved for your plan expires at the end of <strong>${escapeHtml(month)}</strong>, before that day, so the payment of ${formatCents(plan.amount)} for it will likely be declined.</p>
<p><strong>To use a new card:</strong> sign in and choose &ldquo;Change Card&rdquo; on the plan in ${mySubscriptionsLink()} before ${escapeHtml(next)}; your deliveries carry on with the new card. If you need help, contact us at <a href="mailto:${escapeHtml(SHOP.supportEmail)}">${escapeHtml(SHOP.supportEmail)}</a> or ${escapeHtml(SHOP.supportPhone)} (${escapeHtml(SHOP.supportHours)}).</p>
<p>${escapeHtml(otherwise)}</p>${actionLinksHtml(actions)}`,
  );
  return { subject, text, html };
}
