/** The Subscribe & Save plan's welcome (its first order's confirmation is the order confirmation). */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { formatCents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, mySubscriptionsLink, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { billingDay, loadSubscription, planCadence, planItemsHtml, planItemsText, type SubscriptionEmailPlan } from './subscription-plan';

/** Subject id: the subscription id. */
export const email = defineEmail({
  name: 'subscription-welcome',
  payload: z.object({ subscriptionId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.subscriptionCreated]: ({ subscriptionId }) => ({ subscriptionId }) },
  async compose(db, { subscriptionId }, services) {
    const found = await loadSubscription(db, subscriptionId, services);
    if (!found) return skip('subscription not found');
    const content = subscriptionWelcomeEmail({ ...found.plan, nextBillingDate: found.sub.nextBillingDate });
    return { subjectId: subscriptionId, message: { to: found.sub.customerEmail, ...content } };
  },
});

/** Sent once when a Subscribe & Save plan is created (its first order's confirmation goes out on its own). */
export function subscriptionWelcomeEmail(plan: SubscriptionEmailPlan & { nextBillingDate: Date }): Content {
  const subject = `Your ${SHOP.name} Subscribe & Save plan is set up`;
  const cadence = planCadence(plan.interval, plan.intervalCount);
  const next = billingDay(plan.nextBillingDate);
  const text = [
    `Hi ${plan.customerName},`,
    '',
    `Thank you for subscribing! Your Subscribe & Save plan delivers ${cadence} with ${plan.discountPercent}% off and free shipping:`,
    '',
    ...planItemsText(plan.items),
    '',
    `  Each delivery: ${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)`,
    `  Next billing date: ${next}`,
    '',
    'Your first order is on its way; its confirmation comes in a separate email.',
    `We charge your saved card on each billing date. You can cancel any time from My Subscriptions: ${mySubscriptionsUrl()}`,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>Thank you for subscribing! Your Subscribe &amp; Save plan delivers ${escapeHtml(cadence)} with ${plan.discountPercent}% off and free shipping:</p>
${planItemsHtml(plan.items)}
<p><strong>Each delivery:</strong> ${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)<br>
<strong>Next billing date:</strong> ${escapeHtml(next)}</p>
<p>Your first order is on its way; its confirmation comes in a separate email.</p>
<p>We charge your saved card on each billing date. You can cancel any time from ${mySubscriptionsLink()}.</p>`,
  );
  return { subject, text, html };
}
