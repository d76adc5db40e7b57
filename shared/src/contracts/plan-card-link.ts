/**
 * The link staff email a customer to give a plan a new card without signing in (issue 21, "Staff on the
 * customer's behalf"): POST /api/admin/subscriptions/{id}/card-link {reason} sends it; the storefront page
 * /subscriptions/update-card/{token} reads GET /api/subscriptions/update-card/{token} (the plan's summary)
 * and posts the tokenised card to POST /api/subscriptions/update-card/{token}. The token is in the path,
 * never a query string; only its SHA-256 is stored. docs/decisions/subscriptions.md.
 */
import { z } from 'zod';
import { opaqueDataFields } from './checkout';
import { SHOP } from '../constants';
import { SUBSCRIPTION_INTERVALS, SUBSCRIPTION_STATUSES } from './subscriptions';

/** How long a card link works: 7 days. */
export const PLAN_CARD_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The page's path of a link (the email's link is the shop's address + this). */
export const planCardLinkPath = (token: string) => `/subscriptions/update-card/${encodeURIComponent(token)}`;

export const PLAN_CARD_LINK_MESSAGES = {
  /** 404 PLAN_CARD_LINK_INVALID: no such link (mistyped, or a link replaced by a newer one is still "used"). */
  invalid: 'This link is not valid. Please sign in to update your card in My Subscriptions, or ask us for a new link.',
  /** 410 PLAN_CARD_LINK_USED */
  used: 'This link has already been used. Please sign in to update your card in My Subscriptions, or ask us for a new link.',
  /** 410 PLAN_CARD_LINK_EXPIRED */
  expired: 'This link has expired. Please sign in to update your card in My Subscriptions, or ask us for a new link.',
  /** 409: the plan ended since the link was sent. */
  planEnded: 'This subscription has ended, so its card cannot be changed.',
  tooManyTries: 'Too many attempts with links from emails. Please try again in an hour.',
  saved: 'Card saved',
  savedAndResumed: 'Card saved and subscription resumed',
  contact: `Questions? Contact us at ${SHOP.supportEmail} or ${SHOP.supportPhone}.`,
} as const;

/** What the page shows before the card form: the plan's summary and its card as masked as ever. */
export const planCardLinkViewSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  productNames: z.array(z.string()),
  amount: z.string(),
  interval: z.enum(SUBSCRIPTION_INTERVALS),
  intervalCount: z.number().int(),
  nextBillingDate: z.string(),
  cardType: z.string().nullable(),
  cardLastFour: z.string().nullable(),
  /** Paused because a renewal could not be paid: saving the card restarts the plan and charges that delivery at once (as "Resume with a new card"). */
  resumesOnSave: z.boolean(),
  /** When the link stops working (ISO). */
  expiresAt: z.string(),
});
export type PlanCardLinkView = z.infer<typeof planCardLinkViewSchema>;

/** POST /api/subscriptions/update-card/{token}: the card tokenised in the browser, as every card call takes it. */
export const planCardLinkRequestSchema = z.object(opaqueDataFields);
export type PlanCardLinkRequest = z.infer<typeof planCardLinkRequestSchema>;

/** The answer of a card saved through a link. */
export const planCardLinkResultSchema = z.object({ status: z.enum(SUBSCRIPTION_STATUSES), cardType: z.string().nullable(), cardLastFour: z.string().nullable(), resumed: z.boolean() });
export type PlanCardLinkResult = z.infer<typeof planCardLinkResultSchema>;
