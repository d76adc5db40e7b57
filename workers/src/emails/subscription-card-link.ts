/**
 * Staff sent the customer a link to give their plan a new card (issue 21): the single-use link (7 days),
 * its token in the page's path. The token is made as the email is sent (mintSingleUseToken, in the send's
 * transaction), so no outbox row, job or log line holds it; the link's row is all they carry.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { PLAN_CARD_LINK_TTL_MS, planCardLinkPath } from '@nh/shared/contracts/plan-card-link';
import { SHOP } from '@nh/shared/constants';
import { formatCents } from '@nh/shared/money';
import { findPlanCardLinkById } from '@nh/server/queries/subscriptions/card-links';
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { defineEmail, skip } from './define-email';
import { escapeHtml, layout, signatureText, type Content } from './mail/layout';
import { loadSubscription, planItemsText, type SubscriptionEmailPlan } from './subscription-plan';

/** Subject id: the link's id (one email per link). */
export const email = defineEmail({
  name: 'subscription-card-link',
  payload: z.object({ tokenId: z.string().uuid() }),
  topics: { [OUTBOX_TOPICS.subscriptionCardLinkRequested]: ({ tokenId }) => ({ tokenId }) },
  async compose(db, { tokenId }) {
    const link = await findPlanCardLinkById(db, tokenId);
    if (!link) return skip('link not found');
    if (link.usedAt || link.expiresAt.getTime() <= Date.now()) return skip('link used or expired');
    const found = await loadSubscription(db, link.subscriptionId);
    if (!found) return skip('subscription not found');
    if (found.sub.status === 'cancelled' || found.sub.status === 'expired') return skip('subscription ended since');
    return {
      subjectId: tokenId,
      to: link.email,
      mint: (tx) => mintSingleUseToken(tx, 'plan_card_links', tokenId),
      message: (token) => subscriptionCardLinkEmail(found.plan, `${SHOP.siteUrl}${planCardLinkPath(token)}`),
    };
  },
});

export function subscriptionCardLinkEmail(plan: SubscriptionEmailPlan, link: string): Content {
  const subject = `Update the card for your ${SHOP.name} Subscribe & Save plan`;
  const days = Math.round(PLAN_CARD_LINK_TTL_MS / 86_400_000);
  const intro = `As you asked, here is a link to give your Subscribe & Save plan (${formatCents(plan.amount)} each delivery) a new card. You do not need to sign in; the card is saved with our payment service, and we never see its number.`;
  const terms = `The link works once, for ${days} days. If you did not ask for it, ignore this email (your card stays as it is) or contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone}.`;
  const text = [`Hi ${plan.customerName},`, '', intro, '', `Update your card here: ${link}`, terms, '', 'Your plan:', ...planItemsText(plan.items), '', signatureText()].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="color:#2f5d3a;font-weight:bold">Update your card</a></p>
<p>${escapeHtml(terms)}</p>`,
  );
  return { subject, text, html };
}
