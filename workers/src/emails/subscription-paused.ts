/** The plan-paused notice: a renewal could not be paid and dunning is over. */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { formatCents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { findPeriodPaymentMessage } from '@nh/server/queries/email-context';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, mySubscriptionsLink, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { billingDay, loadSubscription, planItemsHtml, planItemsText, type SubscriptionEmailPlan } from './subscription-plan';

/** Subject id: `<subscription id>:<billing period>`, so a plan paused again in a later period is told again. */
export const email = defineEmail({
  name: 'subscription-paused',
  /** `period`: the billing period (yyyy-MM-dd) that went unpaid. */
  payload: z.object({ subscriptionId: z.string().uuid(), period: z.string() }),
  topics: { [OUTBOX_TOPICS.subscriptionPaused]: ({ subscriptionId, period }) => ({ subscriptionId, period }) },
  async compose(db, { subscriptionId, period }, services) {
    const found = await loadSubscription(db, subscriptionId, services);
    if (!found) return skip('subscription not found');
    // Why: what the period's payment row says (the gateway's answer, or why nothing was charged).
    const message = await findPeriodPaymentMessage(db, subscriptionId, period);
    const content = subscriptionPausedEmail({
      ...found.plan,
      dueDate: new Date(`${period}T00:00:00Z`),
      reason: message || 'The payment was not accepted.',
    });
    return { subjectId: `${subscriptionId}:${period}`, message: { to: found.sub.customerEmail, ...content } };
  },
});

/** Sent when a renewal could not be paid and the plan is paused (dunning over, or nothing a retry could fix). */
export function subscriptionPausedEmail(plan: SubscriptionEmailPlan & { dueDate: Date; reason: string }): Content {
  const subject = `Payment failed: your ${SHOP.name} Subscribe & Save plan is paused`;
  const due = billingDay(plan.dueDate);
  const text = [
    `Hi ${plan.customerName},`,
    '',
    `We could not take the payment of ${formatCents(plan.amount)} for your Subscribe & Save delivery due ${due}, so we have paused your plan.`,
    `Reason: ${plan.reason}`,
    '',
    'No further deliveries will be sent or charged while it is paused. Your plan:',
    '',
    ...planItemsText(plan.items),
    '',
    `What to do: to keep your deliveries coming, sign in and choose "Resume with a new card" on this plan in My Subscriptions (${mySubscriptionsUrl()}); we charge the missed delivery as soon as the new card is saved.`,
    `Questions? Contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone} (${SHOP.supportHours}).`,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>We could not take the payment of ${formatCents(plan.amount)} for your Subscribe &amp; Save delivery due <strong>${escapeHtml(due)}</strong>, so we have paused your plan.</p>
<p><strong>Reason:</strong> ${escapeHtml(plan.reason)}</p>
<p>No further deliveries will be sent or charged while it is paused. Your plan:</p>
${planItemsHtml(plan.items)}
<p><strong>What to do:</strong> to keep your deliveries coming, sign in and choose &ldquo;Resume with a new card&rdquo; on this plan in ${mySubscriptionsLink()}; we charge the missed delivery as soon as the new card is saved.</p>
<p>Questions? Contact us at <a href="mailto:${escapeHtml(SHOP.supportEmail)}">${escapeHtml(SHOP.supportEmail)}</a> or ${escapeHtml(SHOP.supportPhone)} (${escapeHtml(SHOP.supportHours)}).</p>`,
  );
  return { subject, text, html };
}
