/**
 * One-click actions from emails (issue 22): the reminder, heads-up and shipping emails carry links that
 * skip the delivery, delay it two weeks, ship it now, change the cadence or cancel, without signing in.
 * The link opens the page /email-actions/{token}, which reads GET /api/email-actions/{token} (a view:
 * changes nothing, so link scanners and previews do nothing) and confirms with POST /api/email-actions/{token}.
 * The token is in the path, never a query string; only its SHA-256 is stored. Each token is for one plan,
 * one billing period and one action, works once, and goes stale when the plan's period moves on.
 * docs/decisions/subscriptions.md ("One-click actions from emails").
 */
import { z } from 'zod';
import { SHOP } from '../constants';
import { CANCEL_REASON_VALUES, CANCELLATION_MESSAGES, COMMENT_MAX_LENGTH } from './cancellation';
import { textField } from './fields';
import { SUBSCRIPTION_INTERVALS, SUBSCRIPTION_STATUSES } from './subscriptions';

export const EMAIL_ACTIONS = ['skip', 'delay', 'ship-now', 'cadence', 'cancel'] as const;
export type EmailAction = (typeof EMAIL_ACTIONS)[number];

/** "Delay two weeks" moves the delivery this many days later. */
export const EMAIL_ACTION_DELAY_DAYS = 14;

/** The page's path of a link (the email's link is the shop's address + this). */
export const emailActionPath = (token: string) => `/email-actions/${encodeURIComponent(token)}`;

/** How the plan's history and the staff plan page name a change made through an emailed link. */
export const PLAN_CHANGE_VIA = ['email-link'] as const;
export type PlanChangeVia = (typeof PLAN_CHANGE_VIA)[number];
export const PLAN_CHANGE_VIA_WORDS: Record<PlanChangeVia, string> = { 'email-link': 'via email link' };

/** The button and the email's link words of each action. */
export function emailActionLabel(action: EmailAction, intervalCount: number): string {
  switch (action) {
    case 'skip':
      return 'Skip this delivery';
    case 'delay':
      return 'Delay two weeks';
    case 'ship-now':
      return 'Ship now';
    case 'cadence':
      return intervalCount === 1 ? 'Deliver every month' : `Deliver every ${intervalCount} months`;
    case 'cancel':
      return 'Cancel subscription';
  }
}

export const EMAIL_ACTION_MESSAGES = {
  /** 404 EMAIL_ACTION_INVALID */
  invalid: 'This link is not valid. Please sign in with a code we email you to manage your plan in My Subscriptions.',
  /** 410 EMAIL_ACTION_USED */
  used: 'This link has already been used. Please sign in with a code we email you to manage your plan in My Subscriptions.',
  /** 410 EMAIL_ACTION_STALE: the delivery it was for has been charged, skipped or moved, or the plan ended. */
  stale:
    'This link is out of date: the delivery it was for has already been charged, skipped or moved, or the plan has changed. Please sign in with a code we email you to manage your plan in My Subscriptions.',
  tooManyTries: 'Too many attempts with links from emails. Please try again in an hour.',
  contact: `Questions? Contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone}.`,
} as const;

/** GET /api/email-actions/{token}: what the link would do, to the plan and delivery it names. */
export const emailActionViewSchema = z.object({
  action: z.enum(EMAIL_ACTIONS),
  /** The button's words (emailActionLabel). */
  label: z.string(),
  /** What confirming does, in a sentence. */
  effect: z.string(),
  /** The plan's items, e.g. "Calm Balm × 2". */
  productNames: z.array(z.string()),
  amount: z.string(),
  interval: z.enum(SUBSCRIPTION_INTERVALS),
  intervalCount: z.number().int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** The delivery the link is for (ISO; the plan's next billing date). */
  deliveryDate: z.string(),
  /** A `cadence` link's new cadence in months; null for the others. */
  newIntervalCount: z.number().int().nullable(),
});
export type EmailActionView = z.infer<typeof emailActionViewSchema>;

/** POST /api/email-actions/{token}: a cancel link may say why (optional, as the cancel dialog). Other actions take no body. */
export const emailActionRequestSchema = z
  .object({
    reason: z.enum(CANCEL_REASON_VALUES, { message: CANCELLATION_MESSAGES.reason }).optional(),
    comment: textField({ max: COMMENT_MAX_LENGTH, tooLong: CANCELLATION_MESSAGES.commentTooLong, multiline: true }).optional(),
  })
  .strict();
export type EmailActionRequest = z.infer<typeof emailActionRequestSchema>;

/** The answer of a confirmed action: what was done, and the plan's next delivery now. */
export const emailActionResultSchema = z.object({
  action: z.enum(EMAIL_ACTIONS),
  /** What was done, in a sentence. */
  done: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  nextBillingDate: z.string(),
});
export type EmailActionResult = z.infer<typeof emailActionResultSchema>;
