/**
 * Business constants: the one place the shop's figures live. Shipping rates, thresholds and promises
 * by zone are in shipping-rules.ts (the one rule behind checkout and every storefront claim; the
 * claims' phrases come from shipping-claims.ts).
 *
 * Brand facts (name, support contact) can be overridden at build/run time through `configureShop`
 * (the API reads SHOP_* environment variables; the SPA reads VITE_SHOP_* variables).
 */

export interface ShopIdentity {
  name: string;
  storeCode: string;
  supportEmail: string;
  supportPhone: string;
  supportHours: string;
  /** Where shoppers reach the shop (links in emails); no trailing slash. */
  siteUrl: string;
}

const defaults: ShopIdentity = {
  name: 'Nurture Home',
  storeCode: 'NH',
  supportEmail: 'hello@nurturehome.com',
  supportPhone: '1-800-555-0142',
  supportHours: 'Monday-Friday 9:00 AM - 6:00 PM EST',
  siteUrl: 'http://localhost:5000',
};

export const SHOP: ShopIdentity = { ...defaults };

/** Overrides the brand facts (called once at start-up from configuration). */
export function configureShop(overrides: Partial<ShopIdentity>): void {
  for (const [key, value] of Object.entries(overrides) as [keyof ShopIdentity, string | undefined][]) {
    if (value) SHOP[key] = key === 'siteUrl' ? value.replace(/\/+$/, '') : value;
  }
}

export const STORE_CODE = 'NH';
export const STORE_CODE_MAX_LENGTH = 10;
export const CURRENCY = 'USD';

/** Tax: 8% of the discounted subtotal, in basis points. */
export const TAX_RATE_BPS = 800;
/** Subscribe & Save discount. */
export const SUBSCRIBE_AND_SAVE_PERCENT = 15;
/**
 * Consent on record (issue 22): a plan's price may rise only after a notice sent at least this many days
 * before the first charge at the new price (docs/decisions/subscriptions.md "Consent on record").
 */
export const PRICE_CHANGE_NOTICE_DAYS = 7;
/**
 * Moving a plan's next delivery (staff and shoppers, one window): from tomorrow, at most this many days
 * from today (UTC days), and before the delivery after next (docs/decisions/subscriptions.md).
 */
export const RESCHEDULE_MAX_DAYS_AHEAD = 90;
/** Changing a plan's quantities on My Subscriptions: each item from 1 to this many (0 removes it). */
export const PLAN_ITEM_MAX_QUANTITY = 10;
/**
 * A shopper adding products to a plan on My Subscriptions: at most this many lines (product and size)
 * on the plan after the change. A plan made at checkout with more keeps them but cannot add one.
 */
export const PLAN_MAX_LINES = 10;
export const STARTER_KIT_SAVINGS_PERCENT = 15;
export const NEWSLETTER_DISCOUNT_PERCENT = 15;
export const MONEY_BACK_GUARANTEE_DAYS = 30;
export const RETURN_WINDOW_DAYS = 30;

export const RATING_CLAIM = { average: 4.9, count: 2847 } as const;
export const NEWSLETTER_FAMILIES_CLAIM = '15,000+';
export const POPUP_CUSTOMERS_CLAIM = '10,000+';

export const SHIPPING_TIMES = {
  standard: '5-7 business days',
  express: '2-3 business days',
  processing: '1-2 business days',
  carrier: '1-5 business days',
  shopFaqStandard: '3-5 business days',
  orderCutoff: '2:00 PM EST',
  refundProcessing: '5-7 business days',
  refundAppears: '5-10 business days',
} as const;

export const IMPACT_FALLBACK = { bottlesSaved: 1_200_000, chemicalsAvoided: 50_000, homesHelped: 25_000 } as const;
export const IMPACT_GOAL_PROGRESS = { bottlesSaved: 85, chemicalsAvoided: 72, homesHelped: 50 } as const;
export const IMPACT_GOALS_2025 = { bottlesSaved: 1_500_000, chemicalPounds: 75_000, chemicalPoundsSummary: 100_000, homesHelped: 50_000 } as const;

export const EWG_BANDS = [
  { label: 'Excellent', min: 1, max: 2 },
  { label: 'Good', min: 3, max: 6 },
  { label: 'Moderate concern', min: 7, max: 10 },
] as const;

export const LIMITS = {
  featuredKits: 6,
  recommendations: 4,
  homeBlogCards: 3,
  homeCategories: 4,
  testimonials: 3,
  communityPhotos: 4,
  trustBadges: 4,
  blogFallbackReadTime: 5,
  placeholders: { journal: 6, ingredients: 9, shop: 8 },
  galleryThumbnails: 4,
  keyBenefits: 4,
  orderIdDisplayLength: 8,
  promoCodeMaxLength: 50,
  discountTypeMaxLength: 20,
} as const;

export const TOAST = { limit: 1, durationMs: 5000, swipeThresholdPx: 50, hotkey: 'F8', removeDelayMs: 1_000_000 } as const;
export const TOOLTIP = { delayMs: 700, skipDelayMs: 300 } as const;
export const HEADER_SCROLL_THRESHOLD_PX = 24;
export const POPUP_DEFAULTS = { delayMs: 10_000, scrollPercent: 50 } as const;

export const STORAGE_KEYS = {
  cart: 'nurture-home-cart',
  wishlist: 'wishlist',
  emailPopupDismissed: 'emailPopupDismissed',
  adminPassword: 'admin_password',
} as const;

export const CARRIERS = ['USPS', 'UPS', 'FedEx', 'DHL'] as const;
export const ORDER_DATE_FORMAT = 'MMM d, yyyy h:mm a';
export const EXPORT_FILE_DATE_FORMAT = 'yyyy-MM-dd';
export const exportFileName = (date: string) => `nh-orders-${date}.csv`;

