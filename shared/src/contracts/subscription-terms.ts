/**
 * Consent on record (issue 22): the Subscribe & Save terms as checkout shows them when the box is ticked,
 * the one source of truth for the checkout's screen and for the server, which records the same words (with
 * the figures it priced) beside the plan. Changing a word of the template below means a new
 * SUBSCRIPTION_TERMS_VERSION: `subscription-terms.test.ts` pins the template's text to its version, so
 * a change without a new version fails there.
 */
import { z } from 'zod';
import { PRICE_CHANGE_NOTICE_DAYS } from '../constants';
import { formatCents, type Cents } from '../money';
import { cadenceWords, SUBSCRIPTION_DISCOUNT_PERCENT, type SubscriptionInterval } from './subscriptions';

/** The version of the terms template below; recorded with every consent. */
export const SUBSCRIPTION_TERMS_VERSION = 'sns-terms-2026-11-28';

export const SUBSCRIPTION_TERMS_MESSAGES = {
  /** 409 SUBSCRIPTION_TERMS_CHANGED: the checkout showed an older version of the terms. */
  changed: 'The Subscribe & Save terms have changed. Please reload the page, read them and try again.',
  /** The staff plan page's section. */
  sectionTitle: 'Consent',
} as const;

export interface SubscriptionTermsFigures {
  /** What each delivery after this one costs today (the Subscribe & Save price, without a promo, taxed for the shipping address), integer cents. */
  renewalAmount: Cents;
  interval: SubscriptionInterval;
  intervalCount: number;
}

/**
 * The terms' paragraphs, in order, as the shopper reads them beside the ticked box. The first two are
 * the checkbox's own words (the spec's "Subscribe & Save" option); the others say what is charged, how
 * often, until when, and how to cancel (the automatic renewal disclosures).
 */
export function subscriptionTermsParagraphs({ renewalAmount, interval, intervalCount }: SubscriptionTermsFigures): string[] {
  const cadence = cadenceWords(interval, intervalCount).toLowerCase();
  const percent = SUBSCRIPTION_DISCOUNT_PERCENT;
  return [
    `Subscribe & Save ${percent}%`,
    `Get this order delivered ${cadence} with ${percent}% off and free shipping. Cancel anytime.`,
    `By starting this subscription you agree to automatic renewal: after today's order, your card is charged ${formatCents(renewalAmount)} per delivery (sales tax for your shipping address at today's rate included, free shipping) ${cadence} until you cancel.`,
    `We email you before each delivery, and at least ${PRICE_CHANGE_NOTICE_DAYS} days before any price increase. Cancel online at any time on My Subscriptions, with no call needed; a delivery already charged still ships.`,
  ];
}

/** The exact text recorded with the consent: the paragraphs, one per line. */
export function subscriptionTermsText(figures: SubscriptionTermsFigures): string {
  return subscriptionTermsParagraphs(figures).join('\n');
}

/** The consent on record as staff read it on the plan page (issue 22). */
export const planConsentSchema = z.object({
  termsVersion: z.string(),
  /** The exact text shown at checkout, one paragraph per line. */
  termsText: z.string(),
  /** The price per delivery agreed, two decimals. */
  agreedAmount: z.string(),
  /** "Every 2 months". */
  cadence: z.string(),
  /** ISO time of the consent (the subscribe request). */
  agreedAt: z.string(),
  /** Blank (null) once anonymised. */
  shippingAddress: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }).nullable(),
  /** The browser's User-Agent; null once anonymised. */
  userAgent: z.string().nullable(),
  anonymised: z.boolean(),
});
export type PlanConsent = z.infer<typeof planConsentSchema>;

/** A price-change notice sent for a plan (issue 22). */
export const priceNoticeSchema = z.object({
  fromAmount: z.string(),
  toAmount: z.string(),
  /** yyyy-mm-dd: the first billing day at the new price. */
  firstChargeOn: z.string(),
  /** ISO time the notice was sent. */
  sentAt: z.string(),
});
export type PriceNotice = z.infer<typeof priceNoticeSchema>;
