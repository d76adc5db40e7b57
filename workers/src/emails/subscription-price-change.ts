/**
 * The price-change notice (consent on record, issue 22): a plan's price per delivery rises. Says the old
 * and the new price, the day of the first delivery charged at it (at least PRICE_CHANGE_NOTICE_DAYS after
 * this email) and how to cancel before then: a one-click `cancel` link for the plan's next delivery (email
 * actions), or My Subscriptions when that link was used already. Sent once per notice row.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { cadenceWords } from '@nh/shared/contracts/subscriptions';
import { formatCents, type Cents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { findPriceNotice } from '@nh/server/queries/subscriptions/consent';
import { defineEmail, skip } from './define-email';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { withActionLinks } from './email-action-links';
import { escapeHtml, layout, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { billingDay, loadSubscription, planItemsHtml, planItemsText, type SubscriptionEmailPlan } from './subscription-plan';

export const email = defineEmail({
  name: 'subscription-price-change',
  payload: z.object({ subscriptionId: z.string().uuid(), noticeId: z.number().int().positive() }),
  topics: { [OUTBOX_TOPICS.subscriptionPriceNotice]: ({ subscriptionId, noticeId }) => ({ subscriptionId, noticeId }) },
  async compose(db, { subscriptionId, noticeId }) {
    const notice = await findPriceNotice(db, noticeId);
    if (!notice || notice.subscriptionId !== subscriptionId) return skip('price notice not found');
    const found = await loadSubscription(db, subscriptionId);
    if (!found) return skip('subscription not found');
    if (found.sub.status === 'cancelled' || found.sub.status === 'expired') return skip('plan ended');
    // The cancel link is for the plan's next delivery: it stays good until that delivery is charged, skipped or moved.
    return withActionLinks({
      subjectId: String(noticeId),
      to: found.sub.customerEmail,
      subscriptionId,
      periodDate: billingPeriodOf(found.sub.nextBillingDate),
      choices: [{ action: 'cancel' }],
      message: (links) =>
        priceChangeEmail({
          ...found.plan,
          fromAmount: notice.fromAmount,
          toAmount: notice.toAmount,
          firstChargeOn: new Date(`${notice.firstChargeOn}T00:00:00.000Z`),
          cancelUrl: links.find((l) => l.action === 'cancel')?.url ?? mySubscriptionsUrl(),
        }),
    });
  },
});

export function priceChangeEmail(plan: SubscriptionEmailPlan & { fromAmount: Cents; toAmount: Cents; firstChargeOn: Date; cancelUrl: string }): Content {
  const subject = `Price change: your ${SHOP.name} Subscribe & Save plan`;
  const day = billingDay(plan.firstChargeOn);
  const cadence = cadenceWords(plan.interval, plan.intervalCount).toLowerCase();
  const text = [
    `Hi ${plan.customerName},`,
    '',
    `The price of your Subscribe & Save plan (delivered ${cadence}) is changing from ${formatCents(plan.fromAmount)} to ${formatCents(plan.toAmount)} per delivery.`,
    `The first delivery charged at ${formatCents(plan.toAmount)} is the one of ${day}. Deliveries before it are charged ${formatCents(plan.fromAmount)} or less.`,
    '',
    'Your plan:',
    ...planItemsText(plan.items),
    '',
    `Don't want to continue at the new price? Cancel before ${day}, online, with no call needed: ${plan.cancelUrl}`,
    `Questions? Contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone} (${SHOP.supportHours}).`,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>The price of your Subscribe &amp; Save plan (delivered ${escapeHtml(cadence)}) is changing from <strong>${formatCents(plan.fromAmount)}</strong> to <strong>${formatCents(plan.toAmount)}</strong> per delivery.</p>
<p>The first delivery charged at ${formatCents(plan.toAmount)} is the one of <strong>${escapeHtml(day)}</strong>. Deliveries before it are charged ${formatCents(plan.fromAmount)} or less.</p>
<p>Your plan:</p>
${planItemsHtml(plan.items)}
<p>Don't want to continue at the new price? <a href="${escapeHtml(plan.cancelUrl)}">Cancel your plan</a> before ${escapeHtml(day)}, online, with no call needed.</p>
<p>Questions? Contact us at <a href="mailto:${escapeHtml(SHOP.supportEmail)}">${escapeHtml(SHOP.supportEmail)}</a> or ${escapeHtml(SHOP.supportPhone)} (${escapeHtml(SHOP.supportHours)}).</p>`,
  );
  return { subject, text, html };
}
