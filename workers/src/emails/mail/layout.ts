/**
 * What every email looks like: subject, plain text and HTML, signed with the shop's name and support
 * contact (SHOP, configurable at start-up); marketing emails add the one-click unsubscribe. Each email's
 * own template is in its file (../<email>.ts).
 */
import { LIMITS, SHOP } from '@nh/shared/constants';
import type { MailMessage } from './transport';
import { escapeHtml } from '@nh/shared/html';

export type Content = Omit<MailMessage, 'to'>;

/** One rule for HTML text, @nh/shared's (the emails import it from here). */
export { escapeHtml };

export function signatureText(): string {
  return `${SHOP.name} · ${SHOP.siteUrl}\nQuestions? ${SHOP.supportEmail} · ${SHOP.supportPhone} (${SHOP.supportHours})`;
}

/** My Subscriptions on the storefront (SHOP.siteUrl is configurable: SHOP_SITE_URL). */
export const mySubscriptionsUrl = () => `${SHOP.siteUrl}/subscriptions`;
export const mySubscriptionsLink = () => `<a href="${escapeHtml(mySubscriptionsUrl())}">My Subscriptions</a>`;

export function layout(title: string, body: string, footer = ''): string {
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
export function marketingEmail(subject: string, textLines: string[], htmlBody: string, unsubscribeToken: string): Content {
  const page = unsubscribePageUrl(unsubscribeToken);
  const why = `You get this email because you subscribed to the ${SHOP.name} newsletter.`;
  const text = [...textLines, '', `${why} To stop receiving it, unsubscribe here: ${page}`].join('\n');
  const html = layout(subject, htmlBody, `\n<p style="font-size:13px;color:#5b6b5b">${escapeHtml(why)} <a href="${escapeHtml(page)}">Unsubscribe</a></p>`);
  const headers = { 'List-Unsubscribe': `<${oneClickUnsubscribeUrl(unsubscribeToken)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return { subject, text, html, headers };
}

/** The order number a customer sees (the checkout toast's): the first characters of the id. */
export const orderNumber = (id: string) => id.slice(0, LIMITS.orderIdDisplayLength);
