/**
 * Policy text of the four legal pages (/legal/{page}). Facts come from the shared constants: the
 * legal figures of operations spec §9 (ships within 1-2 business days, 2:00 PM EST cutoff, 30-day
 * returns, refunds processed in 5-7 and shown 5-10 business days after). Shipping rates, thresholds,
 * promises and places come from the one shipping rule (shipping-rules.ts, phrased by
 * shipping-claims.ts), the rule checkout charges: the spec's "$9.95 under $35, free at $35 and over"
 * sentences are kept with the rule's figures filled in (docs/decisions/tax-and-shipping.md).
 * Pages are built on demand so a shop identity configured at start-up (SHOP) is always current.
 */
import { MONEY_BACK_GUARANTEE_DAYS, RETURN_WINDOW_DAYS, SHIPPING_TIMES, SHOP } from '@nh/shared/constants';
import { homeZone, placesNotShipped, placesShipped, shippedZones, shippingClaim, SUBSCRIBE_AND_SAVE_SHIPPING } from '@nh/shared/shipping-claims';
import { SHIPPING_ZONES, type ShippingZone } from '@nh/shared/shipping-rules';
import { LEGAL_LAST_UPDATED, LEGAL_PAGE_SLUGS, type LegalPageSlug } from '@nh/shared/contracts/site-map';
import { formatUtcDay } from '@nh/shared/days';

// The slugs and the date live with the site map (the API's sitemap.xml lists the same pages).
export { LEGAL_LAST_UPDATED, LEGAL_PAGE_SLUGS, type LegalPageSlug };

/** A small table under a section's paragraphs (the shipping page's zones). */
export interface LegalTable {
  caption: string;
  columns: string[];
  rows: string[][];
}

export interface LegalSection {
  title: string;
  paragraphs: string[];
  list?: string[];
  table?: LegalTable;
  /** Paragraphs after the list and table. */
  notes?: string[];
}

export interface LegalPage {
  slug: LegalPageSlug;
  title: string;
  description: string;
  lastUpdated: string;
  sections: LegalSection[];
}

/** The contiguous zone's rates in the spec's sentences, with the rule's figures (strictly "over" the threshold). */
function homeRates(home: ShippingZone): string[] {
  const claim = shippingClaim(home);
  const standard = claim.freeOver
    ? [`Orders of ${claim.chargedUpTo}: standard shipping ${claim.standardRate}.`, `Orders ${claim.freeOver}: free standard shipping.`]
    : [`Standard shipping: ${claim.standardRate}.`];
  const express = claim.express ? [`Express shipping: ${claim.express.rate}, delivered in ${claim.express.promise} after dispatch.`] : [];
  return [...standard, ...express];
}

/** One row per zone the shop ships to: standard rate and promise, when standard is free, express where offered. */
function zoneRows(zones: readonly ShippingZone[]): string[][] {
  return shippedZones(zones).map((zone) => {
    const claim = shippingClaim(zone);
    return [
      zone.name,
      `${claim.standardRate}, ${claim.standardPromise}`,
      claim.freeOver ? `Orders ${claim.freeOver}` : 'Subscribe & Save only',
      claim.express ? `${claim.express.rate}, ${claim.express.promise}` : 'Not offered',
    ];
  });
}

function shippingPage(zones: readonly ShippingZone[]): LegalPage {
  const home = homeZone(zones);
  const notShipped = placesNotShipped(zones);
  return {
    slug: 'shipping',
    title: 'Shipping Policy',
    description: `How and when ${SHOP.name} orders ship, what shipping costs, and what to do if a package goes astray.`,
    lastUpdated: LEGAL_LAST_UPDATED,
    sections: [
      {
        title: 'Shipping rates',
        paragraphs: [
          `We ship to ${placesShipped(zones)}. Standard shipping is calculated on your order total after discounts, before tax. In the ${home.name}:`,
        ],
        list: homeRates(home),
        notes: [SUBSCRIBE_AND_SAVE_SHIPPING],
      },
      {
        title: 'Rates by destination',
        paragraphs: ['What shipping costs depends on where your order goes. These are the rates checkout charges:'],
        table: {
          caption: 'Shipping rates by destination',
          columns: ['Destination', 'Standard shipping', 'Free standard shipping', 'Express shipping'],
          rows: zoneRows(zones),
        },
        notes: notShipped ? [`We do not ship to ${notShipped} yet, or outside the United States.`] : [],
      },
      {
        title: 'Processing time',
        paragraphs: [
          `Orders ship within ${SHIPPING_TIMES.processing}. Orders placed before ${SHIPPING_TIMES.orderCutoff} on a business day start processing the same day; orders placed after the cutoff, on weekends or on US public holidays start processing on the next business day.`,
          'You will receive a confirmation email with your order number as soon as the order is placed, and a second email with tracking details when it leaves our warehouse.',
        ],
      },
      {
        title: 'Delivery times',
        paragraphs: [
          `Standard delivery usually takes ${shippingClaim(home).standardPromise} after dispatch in the ${home.name}; other destinations take the times in the table above. Carrier estimates are not guarantees: weather, peak seasons and carrier delays can add time in transit.`,
        ],
      },
      {
        title: 'Tracking your order',
        paragraphs: [
          'Use the tracking link in your shipping confirmation email to follow your package. If you cannot find the email, check your spam folder or contact us with your order number and we will send the tracking details again.',
        ],
      },
      {
        title: 'Lost or damaged packages',
        paragraphs: [
          `If your package shows as delivered but has not arrived, or arrives damaged or leaking, contact us within ${RETURN_WINDOW_DAYS} days of the delivery date. Include your order number and, for damaged items, a photo. We will send a replacement or issue a refund at no cost to you.`,
        ],
      },
      {
        title: 'Address changes',
        paragraphs: [
          `Please double-check your shipping address at checkout. If you need to change it, contact us before ${SHIPPING_TIMES.orderCutoff} on the day you ordered; once an order has shipped we can no longer redirect it.`,
        ],
      },
    ],
  };
}

function returnsPage(): LegalPage {
  return {
    slug: 'returns',
    title: 'Returns & Refunds',
    description: `Our ${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee: how to start a return and when your refund arrives.`,
    lastUpdated: LEGAL_LAST_UPDATED,
    sections: [
      {
        title: `${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee`,
        paragraphs: [
          `We want you to love how your home feels after cleaning with ${SHOP.name}. If you are not satisfied, you can return products within ${RETURN_WINDOW_DAYS} days of delivery for a full refund of the product price, even if the bottle has been opened.`,
        ],
      },
      {
        title: 'How to start a return',
        paragraphs: ['Returns are handled by our customer care team so we can make the process as easy as possible:'],
        list: [
          `Email ${SHOP.supportEmail} or call ${SHOP.supportPhone} with your order number and the items you would like to return.`,
          'We will reply with a prepaid return label or, for opened liquid products, instructions to recycle them locally instead of shipping them back.',
          'Pack the items securely, attach the label, and drop the package off with the carrier.',
        ],
      },
      {
        title: 'Refunds',
        paragraphs: [
          `Once we receive and inspect your return, refunds are processed in ${SHIPPING_TIMES.refundProcessing}. The refund goes back to your original payment method and may take a further ${SHIPPING_TIMES.refundAppears} to appear on your statement, depending on your bank.`,
          'Original shipping charges are refunded when the return is due to our error, such as a damaged, defective or incorrect item.',
        ],
      },
      {
        title: 'Damaged or incorrect items',
        paragraphs: [
          'If something arrives damaged, leaking or is not what you ordered, contact us with a photo and your order number. We will send a replacement or refund you right away; you do not need to return the item.',
        ],
      },
      {
        title: 'Subscriptions',
        paragraphs: [
          'Subscribe & Save deliveries are covered by the same guarantee. You can cancel a subscription at any time from My Subscriptions; cancelling stops future deliveries and does not affect orders that have already shipped.',
        ],
      },
    ],
  };
}

function privacyPage(): LegalPage {
  return {
    slug: 'privacy',
    title: 'Privacy Policy',
    description: `What personal information ${SHOP.name} collects, why we collect it and the choices you have.`,
    lastUpdated: LEGAL_LAST_UPDATED,
    sections: [
      {
        title: 'Information we collect',
        paragraphs: ['We collect only what we need to run the shop and look after you:'],
        list: [
          'Contact details you give us: your name, email address, phone number and shipping and billing addresses.',
          'Order information: the products you buy, order totals, promo codes and subscription preferences.',
          'Payment information: card details are sent directly to our payment processor and are never stored on our servers. We keep only the card type, the last four digits and the transaction reference.',
          'Reviews and messages you send us, including the email address used to verify a purchase (never published).',
          'Technical information such as your browser type and pages visited, used to keep the site secure and working well.',
        ],
      },
      {
        title: 'How we use your information',
        paragraphs: [
          'We use your information to process and deliver orders, manage subscriptions, answer your questions, prevent fraud and improve our products and website. If you subscribe to our newsletter we will send you product news and offers; every email includes a link to unsubscribe.',
        ],
      },
      {
        title: 'Sharing',
        paragraphs: [
          'We do not sell your personal information. We share it only with service providers that help us run the shop, such as our payment processor, shipping carriers, email service and order management system, and only as far as they need it to perform their service, or when the law requires it.',
        ],
      },
      {
        title: 'Cookies and local storage',
        paragraphs: [
          'We use a session cookie to keep you signed in and, once you have signed in, a cookie that recognises this browser as one you use, so that someone guessing your password elsewhere does not slow your own sign-in down. Your browser’s local storage remembers your cart and wishlist on your device. We do not use any of them to track you across other websites.',
        ],
      },
      {
        title: 'Data retention and security',
        paragraphs: [
          'We keep order records for as long as needed for accounting, tax and warranty purposes, and other information only as long as it is useful to you. Data is transmitted over encrypted connections and access is limited to staff who need it.',
        ],
      },
      {
        title: 'Your choices',
        paragraphs: [
          `You can ask us to access, correct or delete your personal information, or to stop sending you marketing emails, at any time by emailing ${SHOP.supportEmail}. We will respond within 30 days.`,
        ],
      },
      {
        title: 'Children',
        paragraphs: ['Our shop is intended for adults. We do not knowingly collect personal information from children under 13.'],
      },
    ],
  };
}

function termsPage(): LegalPage {
  return {
    slug: 'terms',
    title: 'Terms of Service',
    description: `The terms that apply when you use the ${SHOP.name} website and buy our products.`,
    lastUpdated: LEGAL_LAST_UPDATED,
    sections: [
      {
        title: 'Agreement',
        paragraphs: [
          `By using this website or placing an order you agree to these terms, together with our Shipping Policy, Returns & Refunds policy and Privacy Policy. If you do not agree, please do not use the site.`,
        ],
      },
      {
        title: 'Orders and pricing',
        paragraphs: [
          'All prices are shown in US dollars. We try to keep product information and prices accurate; if an item is listed at an incorrect price we may cancel the order and refund any amount charged. An order is accepted when we send the shipping confirmation.',
          'Promo codes cannot be exchanged for cash, apply only to eligible orders and may be withdrawn at any time.',
        ],
      },
      {
        title: 'Subscriptions',
        paragraphs: [
          'Subscribe & Save orders renew automatically on the schedule you choose and are charged to the card you provided. You can cancel at any time from My Subscriptions before the next billing date.',
        ],
      },
      {
        title: 'Product use',
        paragraphs: [
          'Use our products only as directed on the label. Keep all cleaning products out of reach of children and pets. Our probiotic cleaners are not disinfectants and are not intended to kill germs.',
        ],
      },
      {
        title: 'Reviews and content you submit',
        paragraphs: [
          'When you post a review you confirm it reflects your honest experience and give us permission to display it on our website. We may remove content that is unlawful, offensive or unrelated to the product.',
        ],
      },
      {
        title: 'Intellectual property',
        paragraphs: [
          `All text, images, logos and designs on this site belong to ${SHOP.name} or its licensors and may not be reused without written permission.`,
        ],
      },
      {
        title: 'Limitation of liability',
        paragraphs: [
          `To the extent permitted by law, ${SHOP.name} is not liable for indirect or consequential losses arising from the use of this website or our products. Nothing in these terms limits rights you have under consumer protection law.`,
        ],
      },
      {
        title: 'Changes to these terms',
        paragraphs: ['We may update these terms from time to time. The date at the top of this page shows when they last changed.'],
      },
    ],
  };
}

const BUILDERS: Record<LegalPageSlug, (zones: readonly ShippingZone[]) => LegalPage> = {
  shipping: shippingPage,
  returns: returnsPage,
  privacy: privacyPage,
  terms: termsPage,
};

/**
 * The legal page for a route parameter, or null for anything else (including "constructor"). The
 * shipping page's figures follow `zones` (the shop's shipping rule unless told).
 */
export function findLegalPage(slug: string | undefined, zones: readonly ShippingZone[] = SHIPPING_ZONES): LegalPage | null {
  if (!slug || !(LEGAL_PAGE_SLUGS as readonly string[]).includes(slug)) return null;
  return BUILDERS[slug as LegalPageSlug](zones);
}

/** "2025-01-15" → "January 15, 2025" (read as a calendar date, independent of the visitor's time zone). */
export function formatLegalDate(isoDate: string): string {
  return formatUtcDay(new Date(`${isoDate}T00:00:00Z`));
}
