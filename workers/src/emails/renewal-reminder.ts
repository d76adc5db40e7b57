/** The renewal reminder, RENEWAL_REMINDER_DAYS before a plan's billing date (added by the daily renewal sweep). */
import { z } from 'zod';
import { formatCents } from '@nh/shared/money';
import { SHOP } from '@nh/shared/constants';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { findPlanCardBrand } from '@nh/server/queries/subscriptions/plan';
import type { Db } from '@nh/server/db/client';
import { jobId } from '@nh/server/jobs/contract';
import { defineEmail, skip } from './define-email';
import { actionLinksHtml, actionLinksText, cadenceChoices, withActionLinks, type ActionChoice, type ActionLink } from './email-action-links';
import { escapeHtml, layout, mySubscriptionsLink, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { billingDay, loadSubscription, planItemsHtml, planItemsText, type EmailPlanLine, type SubscriptionEmailPlan } from './subscription-plan';
import { cardEnding } from '@nh/shared/cards';
import { cadenceSuggestionWords, suggestCadence, type CadenceSuggestion } from '@nh/shared/subscriptions/cadence-suggestion';
import { findCadenceHistory, recordSuggestionShown } from '@nh/server/queries/subscriptions/plan-history';
import { nextDeliveryCharge } from './next-charge';
import type { Cents } from '@nh/shared/money';
import { ONE_TIME_ITEM_PRICE_NOTE } from '@nh/shared/contracts/ship-now-add-ons';

/** Subject id: `<subscription id>:<billing period>`, one reminder per plan and period however often the sweep runs. */
export const email = defineEmail({
  name: 'renewal-reminder',
  /** `period`: the billing period the reminder announces (yyyy-MM-dd, UTC, of the next billing date). */
  /** `cadences`: the cadences offered (PLAN_CADENCE_MONTHS), for a cadence suggestion; jobs without them suggest nothing. */
  payload: z.object({ subscriptionId: z.string().uuid(), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), cadences: z.array(z.number().int().positive()).optional() }),
  /** One reminder job per (subscription, billing period): a second sweep while the job exists adds nothing. */
  jobId: (subscriptionId: string, period: string) => jobId('remind', subscriptionId, period),
  async compose(db, { subscriptionId, period, cadences }, { tax }) {
    const found = await loadSubscription(db, subscriptionId, { tax });
    if (!found) return skip('subscription not found');
    // Judged when sending, not when the sweep ran: a plan cancelled or paused since is not reminded,
    // nor one whose billing date has moved on or passed (a job that waited too long).
    // A plan paused for a number of deliveries is reminded of the day it resumes (the sweep charges it then).
    const resuming = found.sub.status === 'paused' && found.sub.resumesOn !== null && found.sub.failedAttempts === 0;
    if (found.sub.status !== 'active' && !resuming) return skip(`subscription is ${found.sub.status}`);
    const due = resuming ? resumeBillingDate(found.sub.nextBillingDate, found.sub.resumesOn!) : found.sub.nextBillingDate;
    if (billingPeriodOf(due) !== period) return skip('the billing date has moved');
    if (period < billingPeriodOf(new Date())) return skip('the billing date has passed');
    const suggestion = cadences ? await cadenceSuggestionFor(db, subscriptionId, period, cadences) : null;
    const plan = { ...found.plan, nextBillingDate: due, card: await savedCard(db, subscriptionId), suggestion, ...(await nextDeliveryCharge(db, tax, found.sub)) };
    // One-click links for this delivery (an active plan's: a paused one resuming is changed on My Subscriptions).
    const choices: ActionChoice[] = resuming ? [] : [{ action: 'skip' }, { action: 'delay' }, { action: 'ship-now' }, ...cadenceChoices(cadences, found.sub.intervalCount)];
    return withActionLinks({
      subjectId: `${subscriptionId}:${period}`,
      to: found.sub.customerEmail,
      subscriptionId,
      periodDate: period,
      choices,
      message: (actions) => renewalReminderEmail({ ...plan, actions }),
    });
  },
});

/** The billing date a timed pause resumes on: its day at the time of day of the plan's billing date (UTC). */
const resumeBillingDate = (next: Date, resumesOn: string) => new Date(Date.parse(`${resumesOn}T00:00:00.000Z`) + (next.getTime() % 86_400_000));

/**
 * The plan's cadence suggestion (the one rule, shared suggestCadence, on the same history My Subscriptions
 * reads), recorded as shown for the period (once per plan and period, whichever shows it first). Only for
 * a plan on a monthly cadence not in dunning (the reminder goes to active plans only).
 */
async function cadenceSuggestionFor(db: Db, subscriptionId: string, period: string, offered: readonly number[]): Promise<CadenceSuggestion | null> {
  const history = await findCadenceHistory(db.$client, subscriptionId);
  if (!history) return null;
  const suggestion = suggestCadence({ periods: history.cadence_periods, currentMonths: history.interval_count, offeredMonths: offered, dismissedPeriod: history.cadence_dismissed_period, cadenceChangedOn: history.cadence_changed_on });
  if (suggestion) await recordSuggestionShown(db, subscriptionId, period, suggestion.intervalCount);
  return suggestion;
}

/** "Visa ending in 1111": the plan's card (the one renewals charge: @nh/server findPlanCardBrand), when known. */
async function savedCard(db: Db, subscriptionId: string): Promise<string | null> {
  const card = await findPlanCardBrand(db.$client, subscriptionId);
  return cardEnding(card.cardType, card.cardLastFour, { joiner: 'ending in', brandless: 'card' });
}

/** Sent RENEWAL_REMINDER_DAYS before a plan's next billing date: when, how much, and where to cancel. */
export function renewalReminderEmail(
  plan: SubscriptionEmailPlan & {
    nextBillingDate: Date;
    card: string | null;
    suggestion?: CadenceSuggestion | null;
    oneTime?: EmailPlanLine[];
    charge?: Cents;
    /** The sales tax in `charge`, at today's rate for the plan's address (issue 25). */
    tax?: Cents;
    actions?: ActionLink[];
  },
): Content {
  const actions = plan.actions ?? [];
  const next = billingDay(plan.nextBillingDate);
  // A cadence suggestion: the page's words, and a plain link to My Subscriptions (no token) where one tap accepts it.
  const words = plan.suggestion ? cadenceSuggestionWords(plan.suggestion) : null;
  // One-time add-ons ride with this delivery only: listed apart, and in what this delivery charges.
  const oneTime = plan.oneTime ?? [];
  const charge = plan.charge ?? plan.amount;
  // The tax is worked out again at each renewal for where the parcel goes: the reminder says what it is today.
  const taxWords = plan.tax === undefined ? null : `This includes ${formatCents(plan.tax)} sales tax at today's rate for your shipping address.`;
  const oneTimeText = oneTime.length > 0 ? ['', 'One-time items, this delivery only:', ...planItemsText(oneTime), `  ${ONE_TIME_ITEM_PRICE_NOTE}`] : [];
  const oneTimeHtml = oneTime.length > 0 ? `<p><strong>One-time items, this delivery only:</strong></p>\n${planItemsHtml(oneTime)}\n<p>${escapeHtml(ONE_TIME_ITEM_PRICE_NOTE)}</p>` : '';
  const subject = `Your ${SHOP.name} Subscribe & Save renews on ${next}`;
  const card = plan.card ? `your saved card (${plan.card})` : 'your saved card';
  const text = [
    `Hi ${plan.customerName},`,
    '',
    `A quick reminder: your next Subscribe & Save delivery is on ${next}, and we will charge ${formatCents(charge)} to ${card} that day.`,
    ...(taxWords ? [taxWords] : []),
    '',
    ...planItemsText(plan.items),
    ...oneTimeText,
    '',
    `  Each delivery: ${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)`,
    '',
    `If you want this delivery, there is nothing to do. To see or cancel your plan, go to My Subscriptions before then: ${mySubscriptionsUrl()}`,
    ...actionLinksText(actions),
    '',
    ...(words ? [`${words.why} ${words.question} You can change it in one tap on My Subscriptions: ${mySubscriptionsUrl()}`, ''] : []),
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>A quick reminder: your next Subscribe &amp; Save delivery is on <strong>${escapeHtml(next)}</strong>, and we will charge <strong>${formatCents(charge)}</strong> to ${escapeHtml(card)} that day.${taxWords ? ` ${escapeHtml(taxWords)}` : ''}</p>
${planItemsHtml(plan.items)}${oneTimeHtml}
<p><strong>Each delivery:</strong> ${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)</p>
<p>If you want this delivery, there is nothing to do. To see or cancel your plan, go to ${mySubscriptionsLink()} before then.</p>${actionLinksHtml(actions)}${
      words ? `\n<p data-cadence-suggestion>${escapeHtml(`${words.why} ${words.question}`)} You can change it in one tap on ${mySubscriptionsLink()}.</p>` : ''
    }`,
  );
  return { subject, text, html };
}
