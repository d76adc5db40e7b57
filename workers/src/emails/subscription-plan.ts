/** What the Subscribe & Save emails share: the plan as they show it, loaded from its row. */
import type { Cents } from '@nh/shared/money';
import { cadenceWords, type SubscriptionInterval } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import type { LineItem, SubscriptionRow } from '@nh/server/db/schema';
import { priceRenewalWithTax } from '@nh/server/tax/renewal';
import type { EmailServices } from './define-email';
import { findPlan } from '@nh/server/queries/subscriptions/plan';
import { formatCents } from '@nh/shared/money';
import { escapeHtml, layout, mySubscriptionsLink, mySubscriptionsUrl, signatureText, type Content } from './mail/layout';
import { formatUtcDay } from '@nh/shared/days';

/** "March 5, 2026": a billing date is a day (UTC), as the storefront shows it. */
export const billingDay = (date: Date) => formatUtcDay(date);

/** "every month", "every 3 months": the plan's cadence as the screens say it (cadenceWords), mid-sentence. */
export const planCadence = (interval: SubscriptionInterval, intervalCount: number): string => cadenceWords(interval, intervalCount).toLowerCase();

/** "12 Elm St, Portland, OR 97201": a delivery address on one line (a plan's new address, in its emails). */
export const addressWords = (a: { address: string; city: string; state: string; zip: string }) => `${a.address}, ${a.city}, ${a.state} ${a.zip}`;

/** A plan line as the emails list it. */
export type EmailPlanLine = Pick<LineItem, 'productName' | 'quantity' | 'price'>;

export interface SubscriptionEmailPlan {
  customerName: string;
  items: EmailPlanLine[];
  /** What each delivery is charged (discounted subtotal, free shipping, tax). */
  amount: Cents;
  discountPercent: number;
  interval: SubscriptionInterval;
  intervalCount: number;
}

export const planItemsText = (items: EmailPlanLine[]) => items.map((line) => `  ${line.quantity} x ${line.productName} @ $${line.price}`);
export const planItemsHtml = (items: EmailPlanLine[]) =>
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th><th align="right">Price</th></tr>
${items.map((line) => `<tr><td style="padding:4px 0">${escapeHtml(line.productName)}</td><td align="center">${line.quantity}</td><td align="right">$${escapeHtml(line.price)}</td></tr>`).join('')}
</table>`;

/**
 * A plan's price per delivery as its emails say it, tax included: under the flat rule the stored amount
 * itself; under a destination's tax (issue 25) the plan's pre-tax price, which the stored amount holds,
 * taxed for the plan's address at today's rate (what a renewal would charge for these lines today).
 */
export async function deliveryAmount(services: EmailServices | undefined, sub: Pick<SubscriptionRow, 'items' | 'shippingAddress'>, amount: Cents): Promise<Cents> {
  if (!services || services.tax.mode === 'flat' || !sub.shippingAddress) return amount;
  return (await priceRenewalWithTax(services.tax, { items: sub.items, agreed: amount, shippingAddress: sub.shippingAddress })).total;
}

/** A plan and what its emails show of it (`services`: its price per delivery with the address's tax, deliveryAmount). */
export async function loadSubscription(db: Db, subscriptionId: string, services?: EmailServices) {
  const sub = await findPlan(db, subscriptionId);
  if (!sub) return undefined;
  const plan: SubscriptionEmailPlan = {
    customerName: sub.customerName,
    items: sub.items,
    amount: await deliveryAmount(services, sub, sub.amount),
    discountPercent: sub.discountPercent,
    interval: sub.interval,
    intervalCount: sub.intervalCount,
  };
  return { sub, plan };
}

/**
 * The body the two plan-change emails share (a shopper's own change, one staff made): the greeting, what
 * changed, the plan as it now stands, where to see it (`seeYourPlan`, the sentence before "in My
 * Subscriptions") and whom to contact.
 */
export function planChangeContent(o: {
  subject: string;
  lines: string[];
  plan: Pick<SubscriptionEmailPlan, 'customerName' | 'items' | 'amount' | 'discountPercent'>;
  seeYourPlan: string;
  contact: string;
}): Content {
  const { plan } = o;
  const eachDelivery = `${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)`;
  const text = [
    `Hi ${plan.customerName},`,
    '',
    ...o.lines,
    '',
    'Your plan:',
    '',
    ...planItemsText(plan.items),
    '',
    `  Each delivery: ${eachDelivery}`,
    '',
    `${o.seeYourPlan} in My Subscriptions: ${mySubscriptionsUrl()}`,
    o.contact,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    o.subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
${o.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p>Your plan:</p>
${planItemsHtml(plan.items)}
<p><strong>Each delivery:</strong> ${eachDelivery}</p>
<p>${escapeHtml(o.seeYourPlan)} in ${mySubscriptionsLink()}.</p>
<p>${escapeHtml(o.contact)}</p>`,
  );
  return { subject: o.subject, text, html };
}
