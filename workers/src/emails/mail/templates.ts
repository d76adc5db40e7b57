/**
 * Email templates: each returns a subject, a plain-text part and an HTML part, signed with the shop's
 * name and support contact (SHOP, configurable at start-up).
 */
import { centsToDecimal, formatCents, toCents, type Cents } from '@nh/shared/money';
import { LIMITS, SHOP } from '@nh/shared/constants';
import { INTERVAL_MONTHS, type SubscriptionInterval } from '@nh/shared/contracts/subscriptions';
import { trackingUrl } from '@nh/shared/shipping';
import type { Address, LineItem } from '@nh/server';
import type { MailMessage } from './transport';

type Content = Omit<MailMessage, 'to'>;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function signatureText(): string {
  return `${SHOP.name} · ${SHOP.siteUrl}\nQuestions? ${SHOP.supportEmail} · ${SHOP.supportPhone} (${SHOP.supportHours})`;
}

/** My Subscriptions on the storefront (SHOP.siteUrl is configurable: SHOP_SITE_URL). */
const mySubscriptionsUrl = () => `${SHOP.siteUrl}/subscriptions`;
const mySubscriptionsLink = () => `<a href="${escapeHtml(mySubscriptionsUrl())}">My Subscriptions</a>`;

function layout(title: string, body: string, footer = ''): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f7f5ef;font-family:Arial,Helvetica,sans-serif;color:#1f2d1f">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px;padding:32px">
<tr><td><h1 style="margin:0 0 16px;font-size:22px;color:#2f5d3a"><a href="${escapeHtml(SHOP.siteUrl)}" style="color:#2f5d3a;text-decoration:none">${escapeHtml(SHOP.name)}</a></h1>
${body}
<p style="margin-top:32px;font-size:13px;color:#5b6b5b">Questions? Email <a href="mailto:${escapeHtml(SHOP.supportEmail)}">${escapeHtml(SHOP.supportEmail)}</a> or call ${escapeHtml(SHOP.supportPhone)} (${escapeHtml(SHOP.supportHours)}).</p>${footer}
</td></tr></table></td></tr></table></body></html>`;
}

/** The page where a person confirms leaving the newsletter (web route /unsubscribe/:token). */
export const unsubscribePageUrl = (token: string) => `${SHOP.siteUrl}/unsubscribe/${token}`;
/** The RFC 8058 one-click target a mail client POSTs `List-Unsubscribe=One-Click` to. */
export const oneClickUnsubscribeUrl = (token: string) => `${SHOP.siteUrl}/api/newsletter/unsubscribe/${token}`;

/**
 * What every marketing email carries: the RFC 8058 one-click headers, and a visible link to the
 * unsubscribe page at the foot of the text and HTML parts.
 */
function marketingEmail(subject: string, textLines: string[], htmlBody: string, unsubscribeToken: string): Content {
  const page = unsubscribePageUrl(unsubscribeToken);
  const why = `You get this email because you subscribed to the ${SHOP.name} newsletter.`;
  const text = [...textLines, '', `${why} To stop receiving it, unsubscribe here: ${page}`].join('\n');
  const html = layout(subject, htmlBody, `\n<p style="font-size:13px;color:#5b6b5b">${escapeHtml(why)} <a href="${escapeHtml(page)}">Unsubscribe</a></p>`);
  const headers = { 'List-Unsubscribe': `<${oneClickUnsubscribeUrl(unsubscribeToken)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return { subject, text, html, headers };
}

export function newsletterWelcomeEmail({ code, percent, unsubscribeToken }: { code: string; percent: number; unsubscribeToken: string }): Content {
  const subject = `Welcome to ${SHOP.name}: ${percent}% off your first order`;
  const text = [
    `Welcome to the ${SHOP.name} family!`,
    '',
    `Thanks for subscribing. Here is your ${percent}% off code for your first order:`,
    '',
    `    ${code}`,
    '',
    'Enter it at checkout. It can be used once.',
    '',
    signatureText(),
  ];
  const html = `<p>Welcome to the ${escapeHtml(SHOP.name)} family!</p>
<p>Thanks for subscribing. Here is your ${percent}% off code for your first order:</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:2px;background:#eef5ee;padding:12px 16px;display:inline-block;border-radius:6px">${escapeHtml(code)}</p>
<p>Enter it at checkout. It can be used once.</p>`;
  return marketingEmail(subject, text, html, unsubscribeToken);
}

export interface ConfirmationOrder {
  id: string;
  customerName: string;
  items: LineItem[];
  subtotal: Cents;
  discount: Cents;
  shipping: Cents;
  tax: Cents;
  total: Cents;
  promoCode: string | null;
}

const lineTotal = (line: LineItem) => toCents(line.price) * line.quantity;

/** The order number a customer sees (the checkout toast's): the first characters of the id. */
const orderNumber = (id: string) => id.slice(0, LIMITS.orderIdDisplayLength);

export function orderConfirmationEmail(order: ConfirmationOrder): Content {
  const shortId = orderNumber(order.id);
  const subject = `${SHOP.name} order confirmation #${shortId}`;
  const totals: Array<[string, Cents]> = [
    ['Subtotal', order.subtotal],
    ...(order.discount > 0 ? [[order.promoCode ? `Discount (${order.promoCode})` : 'Discount', -order.discount] as [string, Cents]] : []),
    ['Shipping', order.shipping],
    ['Tax', order.tax],
    ['Total', order.total],
  ];
  const text = [
    `Hi ${order.customerName},`,
    '',
    `Thank you for your order #${shortId}. Here is what you ordered:`,
    '',
    ...order.items.map((line) => `  ${line.quantity} x ${line.productName} @ $${line.price} = ${formatCents(lineTotal(line))}`),
    '',
    ...totals.map(([label, cents]) => `  ${label}: ${formatCents(cents)}`),
    '',
    'We will email you again when it ships.',
    '',
    signatureText(),
  ].join('\n');
  const rows = order.items
    .map(
      (line) =>
        `<tr><td style="padding:4px 0">${escapeHtml(line.productName)}</td><td align="center">${line.quantity}</td><td align="right">$${escapeHtml(line.price)}</td><td align="right">$${centsToDecimal(lineTotal(line))}</td></tr>`,
    )
    .join('');
  const totalRows = totals
    .map(([label, cents]) => `<tr><td colspan="3" align="right" style="padding:2px 8px">${escapeHtml(label)}</td><td align="right">${formatCents(cents)}</td></tr>`)
    .join('');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(order.customerName)},</p>
<p>Thank you for your order <strong>#${escapeHtml(shortId)}</strong>. Here is what you ordered:</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th><th align="right">Price</th><th align="right">Line total</th></tr>
${rows}
${totalRows}
</table>
<p>We will email you again when it ships.</p>`,
  );
  return { subject, text, html };
}

/** "March 5, 2026": a billing date is a day (UTC), as the storefront shows it. */
const billingDay = (date: Date) => new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(date);

/** "every month", "every 3 months" */
export function planCadence(interval: SubscriptionInterval, intervalCount: number): string {
  const months = INTERVAL_MONTHS[interval] * intervalCount;
  return months === 1 ? 'every month' : `every ${months} months`;
}

export interface SubscriptionEmailPlan {
  customerName: string;
  items: LineItem[];
  /** What each delivery is charged (discounted subtotal, free shipping, tax). */
  amount: Cents;
  discountPercent: number;
  interval: SubscriptionInterval;
  intervalCount: number;
}

const planItemsText = (items: LineItem[]) => items.map((line) => `  ${line.quantity} x ${line.productName} @ $${line.price}`);
const planItemsHtml = (items: LineItem[]) =>
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th><th align="right">Price</th></tr>
${items.map((line) => `<tr><td style="padding:4px 0">${escapeHtml(line.productName)}</td><td align="center">${line.quantity}</td><td align="right">$${escapeHtml(line.price)}</td></tr>`).join('')}
</table>`;

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

export interface ShippedOrder {
  id: string;
  customerName: string;
  items: LineItem[];
  shippingAddress: Address;
  carrier: string | null;
  trackingNumber: string | null;
}

/** Sent once when staff mark an order shipped: what is in the parcel, how to track it, where it goes. */
export function orderShippedEmail(order: ShippedOrder): Content {
  const shortId = orderNumber(order.id);
  const subject = `Your ${SHOP.name} order #${shortId} has shipped`;
  const link = trackingUrl(order.carrier, order.trackingNumber);
  const a = order.shippingAddress;
  const addressLines = [order.customerName, a.address, `${a.city}, ${a.state} ${a.zip}`];
  const tracking: Array<[string, string]> = [
    ...(order.carrier ? [['Carrier', order.carrier] as [string, string]] : []),
    ...(order.trackingNumber ? [['Tracking number', order.trackingNumber] as [string, string]] : []),
  ];
  const text = [
    `Hi ${order.customerName},`,
    '',
    `Good news: your order #${shortId} is on its way. In the parcel:`,
    '',
    ...order.items.map((line) => `  ${line.quantity} x ${line.productName}`),
    '',
    ...tracking.map(([label, value]) => `  ${label}: ${value}`),
    ...(link ? [`  Track your parcel: ${link}`] : []),
    ...(tracking.length ? [''] : []),
    'Shipping to:',
    ...addressLines.map((l) => `  ${l}`),
    '',
    signatureText(),
  ].join('\n');
  const trackingHtml = tracking.length
    ? `<p>${tracking.map(([label, value]) => `<strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}`).join('<br>\n')}${
        link ? `<br>\n<a href="${escapeHtml(link)}" style="color:#2f5d3a;font-weight:bold">Track your parcel</a>` : ''
      }</p>`
    : '';
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(order.customerName)},</p>
<p>Good news: your order <strong>#${escapeHtml(shortId)}</strong> is on its way. In the parcel:</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr><th align="left">Item</th><th>Qty</th></tr>
${order.items.map((line) => `<tr><td style="padding:4px 0">${escapeHtml(line.productName)}</td><td align="center">${line.quantity}</td></tr>`).join('')}
</table>
${trackingHtml}
<p><strong>Shipping to:</strong><br>${addressLines.map(escapeHtml).join('<br>')}</p>`,
  );
  return { subject, text, html };
}

/** Sent RENEWAL_REMINDER_DAYS before a plan's next billing date: when, how much, and where to cancel. */
export function renewalReminderEmail(plan: SubscriptionEmailPlan & { nextBillingDate: Date; card: string | null }): Content {
  const next = billingDay(plan.nextBillingDate);
  const subject = `Your ${SHOP.name} Subscribe & Save renews on ${next}`;
  const card = plan.card ? `your saved card (${plan.card})` : 'your saved card';
  const text = [
    `Hi ${plan.customerName},`,
    '',
    `A quick reminder: your next Subscribe & Save delivery is on ${next}, and we will charge ${formatCents(plan.amount)} to ${card} that day.`,
    '',
    ...planItemsText(plan.items),
    '',
    `  Each delivery: ${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)`,
    '',
    `If you want this delivery, there is nothing to do. To see or cancel your plan, go to My Subscriptions before then: ${mySubscriptionsUrl()}`,
    '',
    signatureText(),
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hi ${escapeHtml(plan.customerName)},</p>
<p>A quick reminder: your next Subscribe &amp; Save delivery is on <strong>${escapeHtml(next)}</strong>, and we will charge <strong>${formatCents(plan.amount)}</strong> to ${escapeHtml(card)} that day.</p>
${planItemsHtml(plan.items)}
<p><strong>Each delivery:</strong> ${formatCents(plan.amount)} (with your ${plan.discountPercent}% discount, free shipping and tax)</p>
<p>If you want this delivery, there is nothing to do. To see or cancel your plan, go to ${mySubscriptionsLink()} before then.</p>`,
  );
  return { subject, text, html };
}
