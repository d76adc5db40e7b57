/**
 * The database schema: every entity of both spec documents, plus what the design adds (outbox,
 * exports, email log, idempotency keys). Column names are snake_case in SQL (the client and
 * drizzle-kit both use `casing: 'snake_case'`); money columns are integer cents in code.
 */
import type { ShippingMethod } from '@nh/shared/shipping-rules';
import type { TaxSourceName } from '@nh/shared/contracts/order-delivery';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { money } from './money-column';

// ---------------------------------------------------------------- enumerations
export const productStatus = pgEnum('product_status', ['active', 'inactive', 'out_of_stock']);
export const orderStatus = pgEnum('order_status', ['pending', 'processing', 'shipped', 'delivered', 'cancelled']);
export const subscriptionStatus = pgEnum('subscription_status', ['active', 'paused', 'cancelled', 'expired']);
export const subscriptionInterval = pgEnum('subscription_interval', ['monthly', 'quarterly', 'biannual', 'annual']);
export const paymentStatus = pgEnum('payment_status', ['pending', 'approved', 'declined', 'error', 'refunded']);
export const staffRole = pgEnum('staff_role', ['owner', 'manager', 'fulfilment', 'support']);
export const staffTokenPurpose = pgEnum('staff_token_purpose', ['invitation', 'password_reset']);
/** A payment row's kind: money taken (charge), given back after settlement (refund), or a charge cancelled before settlement (void). */
export const paymentKind = pgEnum('payment_kind', ['charge', 'refund', 'void']);

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- shared JSON shapes
export interface Address {
  address: string;
  city: string;
  state: string;
  zip: string;
}
export interface ProductVariant {
  label: string;
  price: string;
  sku: string;
}
/** One line of an order or subscription, priced by the server from the catalogue. */
export interface LineItem {
  productId: number;
  productName: string;
  variantSku: string | null;
  sku: string | null;
  itemNumber: string | null;
  quantity: number;
  /** Unit price, two-decimal string as the spec's payloads show it. */
  price: string;
  /** On a renewal order: a one-time add-on of the plan (issue 21), not one of its recurring lines. */
  oneTime?: boolean;
  /** With `oneTime`: the plan's add-on line (OneTimeLine.id) this order line ships. */
  oneTimeLineId?: string;
  /** The line's tax, two-decimal string (issue 25; absent on orders from before: spread the order's tax). */
  tax?: string;
  /**
   * The product's tax code when the line was priced (issue 25: products.tax_code), sent to a tax provider
   * with the line; absent (a product without one, lines from before) or null: general goods.
   */
  taxCode?: string | null;
}
/** One line of a refund by line (issue 23): `line` is the 0-based index of the order's line. */
export interface RefundLinePart {
  line: number;
  quantity: number;
  /** Cents given back for these items (their share of what was paid: discounts and tax spread as priced). */
  amount: number;
  restock: boolean;
}
/**
 * A one-time add-on of a plan (issue 21): rides with the next delivery only, priced from the catalogue
 * on the day it is charged; `id` names it for removal and for the renewal that ships it.
 */
export interface OneTimeLine {
  id: string;
  productId: number;
  productName: string;
  variantSku: string | null;
  quantity: number;
}
export interface Faq {
  q: string;
  a: string;
}
export interface InternalLink {
  anchor: string;
  href: string;
}

// ---------------------------------------------------------------- catalogue
export const categories = pgTable('categories', {
  id: serial().primaryKey(),
  name: text().notNull(),
  slug: text().notNull().unique(),
  description: text(),
  image: text(),
  createdAt: createdAt(),
});

export const products = pgTable(
  'products',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    slug: text().notNull().unique(),
    description: text(),
    shortDescription: text(),
    price: money(10).notNull(),
    compareAtPrice: money(10),
    images: text().array().notNull().default(sql`'{}'::text[]`),
    categoryId: integer().references(() => categories.id, { onDelete: 'set null' }),
    status: productStatus().notNull().default('active'),
    inventory: integer().notNull().default(0),
    weight: numeric({ precision: 8, scale: 2 }),
    itemNumber: text(),
    sku: text(),
    upc: text(),
    caseUpc: text(),
    size: text(),
    caseCount: integer(),
    ingredients: text().array().notNull().default(sql`'{}'::text[]`),
    features: text().array().notNull().default(sql`'{}'::text[]`),
    uses: text().array().notNull().default(sql`'{}'::text[]`),
    benefits: text().array().notNull().default(sql`'{}'::text[]`),
    instructions: text(),
    cautions: text(),
    kitContents: text().array().notNull().default(sql`'{}'::text[]`),
    isStarterKit: boolean().notNull().default(false),
    isBestseller: boolean().notNull().default(false),
    isRefill: boolean().notNull().default(false),
    isFragranceFree: boolean().notNull().default(false),
    variants: jsonb().$type<ProductVariant[]>().notNull().default([]),
    /**
     * A tax provider's product tax code (issue 25), e.g. TaxJar's `31000` or Avalara's `P0000000`; null:
     * general goods. Copied onto each order line it is sold in (LineItem.taxCode). Format: TAX_CODE_PATTERN
     * (@nh/shared contracts/admin), checked by products_tax_code_format.
     */
    taxCode: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index().on(t.categoryId),
    check('products_inventory_not_negative', sql`${t.inventory} >= 0`),
    check('products_price_not_negative', sql`${t.price} >= 0`),
    // TAX_CODE_PATTERN (@nh/shared contracts/admin): 1–25 letters, digits, dots and hyphens.
    check('products_tax_code_format', sql`${t.taxCode} ~ '^[A-Za-z0-9.-]{1,25}$'`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial().primaryKey(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    customerName: text().notNull(),
    customerEmail: text().notNull(),
    rating: integer().notNull(),
    title: text(),
    comment: text().notNull(),
    verified: boolean().notNull().default(false),
    orderId: uuid(),
    /** Set while staff hide the review from the storefront (moderation). */
    hiddenAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.productId, t.createdAt),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    // A customer's reviews (the back office's customer page).
    index('reviews_customer_email').on(sql`lower(${t.customerEmail})`),
  ],
);

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: serial().primaryKey(),
    title: text().notNull(),
    slug: text().notNull().unique(),
    excerpt: text(),
    content: text().notNull(),
    image: text(),
    author: text(),
    readTime: integer(),
    category: text(),
    published: boolean().notNull().default(false),
    metaTitle: text(),
    metaDescription: text(),
    targetKeywords: text().array().notNull().default(sql`'{}'::text[]`),
    faqs: jsonb().$type<Faq[]>().notNull().default([]),
    internalLinks: jsonb().$type<InternalLink[]>().notNull().default([]),
    schemaJsonLd: jsonb().$type<unknown[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.published, t.createdAt)],
);

export const ingredients = pgTable('ingredients', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
  description: text(),
  ewgRating: integer(),
  safetyInfo: text(),
  source: text(),
  function: text(),
  createdAt: createdAt(),
});

export const impactStats = pgTable('impact_stats', {
  id: serial().primaryKey(),
  bottlesSaved: integer().notNull().default(0),
  chemicalsAvoided: integer().notNull().default(0),
  homesHelped: integer().notNull().default(0),
  updatedAt: updatedAt(),
});

export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  id: serial().primaryKey(),
  email: text().notNull().unique(),
  subscribedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** Secret of the one-click unsubscribe link in every marketing email (RFC 8058). */
  unsubscribeToken: uuid().notNull().defaultRandom().unique(),
  /** Set when the subscriber unsubscribes: no marketing email is sent while it is set. */
  unsubscribedAt: timestamp({ withTimezone: true }),
});

// ---------------------------------------------------------------- accounts
export const users = pgTable('users', {
  id: uuid().primaryKey().defaultRandom(),
  email: text().notNull().unique(),
  firstName: text(),
  lastName: text(),
  profileImageUrl: text(),
  /** scrypt hash for the built-in sign-in; null for users from an outside identity provider. */
  passwordHash: text(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Layout expected by connect-pg-simple (express-session store); `sid` is the SHA-256 of the session id (api/src/lib/session.ts). */
export const sessions = pgTable(
  'sessions',
  {
    sid: varchar().primaryKey(),
    sess: jsonb().notNull(),
    expire: timestamp({ precision: 6 }).notNull(),
  },
  (t) => [index('IDX_session_expire').on(t.expire)],
);

/** What a shopper's emailed single-use link is for. */
export const shopperTokenPurpose = pgEnum('shopper_token_purpose', ['password_reset', 'order_access', 'email_change']);

/**
 * Shoppers' single-use emailed links (issue 13): a password reset (1 h) for an account, or a guest's
 * look at one order (24 h). As with staff tokens, only the SHA-256 of the random token is stored: the
 * token is made by the mail worker as it sends the email (until then the hash is of a token nobody has).
 */
export const shopperTokens = pgTable(
  'shopper_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(),
    purpose: shopperTokenPurpose().notNull(),
    /** Where the link was sent (lower-cased). */
    email: text().notNull(),
    /** The account a reset is for (null for an order link). */
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** The order an order link shows (null for a reset). */
    orderId: uuid().references(() => orders.id, { onDelete: 'cascade' }),
    /**
     * An email change (issue 23; `email` is the new address, `userId` the account): the account's address
     * when the customer confirmed, written as the link is spent (the notice that it changed goes there).
     */
    previousEmail: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('shopper_tokens_user').on(t.userId), index('shopper_tokens_order').on(t.orderId)],
);

/**
 * Sign-in codes (issue 22): a 6-digit code emailed to a shopper, valid 10 minutes, once, at most 5 wrong
 * tries. Only an HMAC of the code under a server pepper is kept (6 digits would be guessed offline from a
 * bare hash); the mail worker makes the code as it sends (the row starts with a hash nothing matches).
 */
export const signInCodes = pgTable(
  'sign_in_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text().notNull(),
    /** The account; null for a checkout's sign-up code to an email without one (the account is made when the code is verified). */
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    /** Wrong codes typed while this one was open; at 5 it opens nothing. */
    tries: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sign_in_codes_email').on(t.email, t.expiresAt)],
);

// ---------------------------------------------------------------- staff (the back office)
export const staff = pgTable('staff', {
  id: uuid().primaryKey().defaultRandom(),
  /** Lower-cased: one account per address whatever its case. */
  email: text().notNull().unique(),
  name: text().notNull(),
  role: staffRole().notNull(),
  /** scrypt hash (the same scheme as shoppers' passwords). */
  passwordHash: text().notNull(),
  /** Set while the account is disabled: no sign-in, and its sessions were ended when it was set. */
  disabledAt: timestamp({ withTimezone: true }),
  lastSignInAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Server-side staff sessions: the cookie holds a random token, the table only its SHA-256. */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    tokenHash: text().primaryKey(),
    staffId: uuid()
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ip: text(),
    userAgent: text(),
    createdAt: createdAt(),
  },
  (t) => [index('staff_sessions_staff').on(t.staffId), index('staff_sessions_expires').on(t.expiresAt)],
);

/**
 * Single-use emailed links: invitations (72 h) and password resets (1 h). Only the token's SHA-256 is
 * kept, of the token the mail worker made as it sent the email (until then, of a token nobody has).
 */
export const staffTokens = pgTable(
  'staff_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(),
    purpose: staffTokenPurpose().notNull(),
    email: text().notNull(),
    /** The role an invitation grants (null for a reset). */
    role: staffRole(),
    /** The account a reset is for (null for an invitation). */
    staffId: uuid().references(() => staff.id, { onDelete: 'cascade' }),
    createdBy: uuid().references(() => staff.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_tokens_email').on(t.email, t.purpose)],
);

/**
 * The audit trail: one row per staff action that changed something, written in the same transaction
 * as the change. Append-only: a trigger (migration 0008) refuses UPDATE, DELETE and TRUNCATE.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Null for a failed sign-in with an unknown email, or after the account was deleted. */
    actorId: uuid(),
    actorEmail: text().notNull(),
    actorRole: staffRole(),
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text().notNull(),
    /** The changed fields as they were and as they became (a JSON diff); null where nothing existed. */
    before: jsonb(),
    after: jsonb(),
    ip: text(),
    userAgent: text(),
    requestId: text(),
  },
  (t) => [
    index('audit_events_entity').on(t.entityType, t.entityId, t.at),
    index('audit_events_actor').on(t.actorId, t.at),
    index('audit_events_at').on(t.at),
  ],
);

// ---------------------------------------------------------------- orders and payments
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** Card provider's subscription id (ARB), when the provider schedules the billing itself. */
    authnetSubscriptionId: text(),
    /** Card provider's customer profile (CIM) id; renewals charge this profile. */
    authnetCustomerProfileId: text(),
    authnetPaymentProfileId: text(),
    /**
     * The stored card's expiry: the last day of its expiry month (the card is good through that day), as
     * the provider answers it for the payment profile above. Null until looked up (a lookup that failed,
     * or a provider that does not say); written after the card is stored, never on the checkout's path.
     */
    cardExpiresOn: date({ mode: 'string' }),
    /**
     * Brand and last four of the stored card when the shopper changed it on My Subscriptions (Accept.js
     * answers them with the stored profile); null while the card is the one of the plan's payments, whose
     * latest approved row then says it.
     */
    cardType: text(),
    cardLastFour: text(),
    customerEmail: text().notNull(),
    customerName: text().notNull(),
    items: jsonb().$type<LineItem[]>().notNull(),
    interval: subscriptionInterval().notNull().default('monthly'),
    intervalCount: integer().notNull().default(1),
    amount: money(10).notNull(),
    discountPercent: integer().notNull().default(15),
    nextBillingDate: timestamp({ withTimezone: true }).notNull(),
    status: subscriptionStatus().notNull().default('active'),
    shippingAddress: jsonb().$type<Address>(),
    /** Consecutive declined renewals (dunning). */
    failedAttempts: integer().notNull().default(0),
    /**
     * Dunning: when the unpaid period (still `nextBillingDate`) is tried again after a failed renewal;
     * null when nothing failed. Always later than `nextBillingDate`, so the sweep's index still serves.
     */
    retryAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    cancelledAt: timestamp({ withTimezone: true }),
    /**
     * A plan paused for 1, 2 or 3 deliveries (issue 21): the UTC day its renewals start again (the billing
     * date after the deliveries it skips). The daily renewal sweep resumes it on its saved card that day;
     * null for an open-ended pause and for every plan that is not paused.
     */
    resumesOn: date({ mode: 'string' }),
    /** One-time add-ons for the next delivery (issue 21); removed by the renewal whose payment is approved. */
    oneTimeItems: jsonb().$type<OneTimeLine[]>().notNull().default([]),
    /**
     * A save offer accepted when cancelling (issue 22): percent off the next delivery, taken by the one
     * renewal whose payment is approved (cleared with it); null when none is due.
     */
    nextDeliveryDiscountPercent: integer(),
    /**
     * Consent on record (issue 22): the price per delivery the shopper last agreed to (at subscribe, or
     * their own change of items) or was sent a price-change notice of; null on plans from before it
     * (their `amount` stands for it). The daily price-notice sweep compares the renewal price with it.
     */
    agreedAmount: money(10),
    /** The first billing day (UTC) on which `agreedAmount` may be charged (a notice's); null: already. */
    agreedAmountFrom: date({ mode: 'string' }),
    /** What may be charged before `agreedAmountFrom` (the price agreed before the notice). */
    priorAgreedAmount: money(10),
  },
  (t) => [index().on(t.userId), index().on(t.status, t.nextBillingDate)],
);

/**
 * Consent on record (issue 22): what the shopper agreed to when the plan was made, one row per plan,
 * written in the statement that creates it. Kept at least three years (docs/decisions/subscriptions.md
 * "Consent on record"): housekeeping never deletes it; an anonymisation may blank the personal fields
 * (address, browser, IP address) and set `anonymisedAt`, never delete the row.
 */
export const subscriptionConsents = pgTable('subscription_consents', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  subscriptionId: uuid()
    .notNull()
    .unique()
    .references(() => subscriptions.id, { onDelete: 'restrict' }),
  /** SUBSCRIPTION_TERMS_VERSION (shared contracts/subscription-terms.ts) of the text shown. */
  termsVersion: text().notNull(),
  /** The exact text shown at checkout, with the figures the server priced. */
  termsText: text().notNull(),
  /** The price per delivery agreed, integer cents, from the server's pricing. */
  amountCents: integer().notNull(),
  interval: subscriptionInterval().notNull(),
  intervalCount: integer().notNull(),
  agreedAt: timestamp({ withTimezone: true }).notNull(),
  shippingAddress: jsonb().$type<Address>(),
  userAgent: text(),
  ipAddress: text(),
  anonymisedAt: timestamp({ withTimezone: true }),
});

/** Price-change notices (issue 22): one row per notice sent, the old and new price and the first charge at it. */
export const subscriptionPriceNotices = pgTable(
  'subscription_price_notices',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'restrict' }),
    fromAmount: money(10).notNull(),
    toAmount: money(10).notNull(),
    /** The first billing day (UTC) charged at `toAmount`. */
    firstChargeOn: date({ mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.subscriptionId)],
);

/**
 * Why a plan was cancelled (issue 22): one row per cancellation, by its shopper or by staff on the
 * customer's behalf; the reason is optional (null: none given). The cancellations report reads it.
 */
export const subscriptionCancellations = pgTable(
  'subscription_cancellations',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** `customer` or `staff`. */
    actor: text().notNull(),
    /** One of CANCEL_REASONS (shared contracts/cancellation.ts), or null. */
    reason: text(),
    comment: text(),
  },
  (t) => [index().on(t.at), index().on(t.subscriptionId)],
);

/**
 * Save offers shown in the cancel dialog (issue 22), one row each, and when accepted. The discount's
 * cool-down (once in 12 months per plan) and the cancellations report read them.
 */
export const subscriptionCancelOffers = pgTable(
  'subscription_cancel_offers',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    /** CancelOffer kind: longer-cadence, skip, shorter-cadence, ship-now, discount, change-items. */
    kind: text().notNull(),
    shownAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.shownAt), index().on(t.subscriptionId, t.kind)],
);

/**
 * Links staff email a customer to give a plan a new card without signing in (issue 21, "Staff on the
 * customer's behalf"): single use, PLAN_CARD_LINK_TTL_MS (7 days). As with the other emailed links only
 * the SHA-256 of the token is stored, made by the mail worker as it sends the email (until then the hash
 * of a token nobody has: @nh/server single-use-tokens). A newer link for the plan spends the older ones.
 */
export const planCardLinks = pgTable(
  'plan_card_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** Where the link was sent (the plan's customer email then). */
    email: text().notNull(),
    /** The staff member who sent it (the audit row names them too). */
    createdBy: uuid().references(() => staff.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('plan_card_links_subscription').on(t.subscriptionId)],
);

/**
 * One-click actions from emails (issue 22): the reminder, heads-up and shipping emails carry links that
 * skip, delay two weeks, ship now, change the cadence or cancel the plan without signing in. One row per
 * (plan, billing period, action, cadence): single purpose and single use, only the SHA-256 of the token
 * stored (minted by the mail worker as the email is sent; a later email for the same row replaces the
 * hash, so only the latest link works). Bound to its period: once the plan's next billing date has moved
 * on (charged, skipped, moved) the link is stale. `expiresAt` is a backstop for housekeeping.
 */
export const emailActionTokens = pgTable(
  'email_action_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** yyyy-MM-dd (UTC): the billing period (the delivery) the link acts on. */
    billingPeriod: date({ mode: 'string' }).notNull(),
    /** EmailAction: skip, delay, ship-now, cadence, cancel. */
    action: text().notNull(),
    /** The cadence (months) of a `cadence` link; 0 for every other action. */
    intervalCount: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_action_tokens_purpose').on(t.subscriptionId, t.billingPeriod, t.action, t.intervalCount), index().on(t.expiresAt)],
);

/**
 * The changes shoppers make to their own plans on My Subscriptions, and those the plan makes by itself
 * (a timed pause ending), one row each, written with the change (staff changes are in audit_events):
 * the staff plan page shows them beside the staff's, and a paused plan says who paused it.
 */
export const subscriptionChanges = pgTable(
  'subscription_changes',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** `customer` (on My Subscriptions) or `plan` (the renewals, e.g. a timed pause that ended). */
    actor: text().notNull(),
    /** A `ShopperPlanChange` kind (@nh/shared contracts/subscriptions), or `cancelled`; the staff plan page words each. */
    kind: text().notNull(),
    before: jsonb(),
    after: jsonb(),
    /** How the customer made it when not on My Subscriptions: `email-link` (a one-click action from an email, issue 22). */
    via: text(),
  },
  (t) => [index().on(t.subscriptionId, t.at)],
);

/**
 * A cadence that learns (issue 21): each suggestion shown to a plan's shopper, once per plan and billing
 * period (My Subscriptions or the renewal reminder), and what became of it: accepted (a change to the
 * suggested cadence followed) or declined (hidden for three periods). The dashboard counts them.
 */
export const subscriptionCadenceSuggestions = pgTable(
  'subscription_cadence_suggestions',
  {
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** yyyy-MM-dd (UTC) of the plan's next billing date when it was shown. */
    billingPeriod: text().notNull(),
    /** The cadence suggested, in months. */
    intervalCount: integer().notNull(),
    shownAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp({ withTimezone: true }),
    dismissedAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.billingPeriod] }), index().on(t.shownAt)],
);

/**
 * Ship now (issue 21): one row per delivery a shopper or staff asked to ship today. Unique per (plan,
 * billing period), so one period is shipped now once; the request's Idempotency-Key is kept only as its
 * SHA-256 (`keyHash`), unique per plan, so a repeat answers the same. The learning cadence reads a
 * charged period with a row here as shipped early (queries/subscriptions/plan-history.ts).
 */
export const subscriptionShipNows = pgTable(
  'subscription_ship_nows',
  {
    id: uuid().primaryKey().defaultRandom(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** yyyy-MM-dd (UTC) of the period charged now, as payment_transactions.billing_period. */
    billingPeriod: text().notNull(),
    keyHash: text().notNull(),
    /** Who asked: the shopper (users.id) or a staff member (staff.id); one of the two. */
    requestedByUserId: uuid(),
    requestedByStaffId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('subscription_ship_nows_period').on(t.subscriptionId, t.billingPeriod), uniqueIndex('subscription_ship_nows_key').on(t.subscriptionId, t.keyHash)],
);

/**
 * Billing periods of a plan that were not charged because the plan fell more than one period behind
 * (the renewals worker was down): one row per (plan, period), shown to staff and to the shopper.
 */
/**
 * The plans' daily snapshot (issue 23): each plan's state and monthly-normalised amount as the day's
 * maintenance job found it, one row per (UTC day, plan), kept from the day the job first ran. MRR
 * movement between two days is read from two days' rows; written idempotently (a day's second run
 * changes nothing). No foreign key: a deleted plan's history stays.
 */
export const subscriptionSnapshots = pgTable(
  'subscription_snapshots',
  {
    day: date({ mode: 'string' }).notNull(),
    subscriptionId: uuid().notNull(),
    status: subscriptionStatus().notNull(),
    /** Cents per month: amount / (months between deliveries), rounded half up to the cent; 0 unless active. */
    mrrCents: bigint({ mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.day, t.subscriptionId] })],
);

/**
 * Each snapshot day's MRR and its movement since the previous snapshot day (issue 23, docs/decisions/admin.md
 * "Subscriptions: snapshot, MRR, movement, churn, save rate"): written with the day's snapshot, in its
 * transaction, by `write_subscription_movements` (migration subscription_movements). Kind `mrr`: the day's
 * MRR and the plans earning that day (every snapshot day has one; it marks the day as done); the others
 * (new, expansion, contraction, churned, reactivated): the plans that moved that way since the previous
 * snapshot day and the change in MRR (churned and contraction negative). The report sums the range's days.
 */
export const subscriptionMovements = pgTable(
  'subscription_movements',
  {
    day: date({ mode: 'string' }).notNull(),
    kind: text().notNull(),
    plans: integer().notNull(),
    cents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.kind] }),
    check('subscription_movements_kind', sql`${t.kind} in ('mrr', 'new', 'expansion', 'contraction', 'churned', 'reactivated')`),
  ],
);

/**
 * The sales reports' summary (issue 23, docs/decisions/admin.md "Reports: the daily summary"): kept by the
 * triggers of migration report_summary in the transaction of each order, payment and store credit write.
 * One row per paid order (processing, shipped, delivered): its UTC day, total and what was given back of
 * it (approved card refunds and voids, refunds to store credit; never more than the total), its units and
 * product lines, the reports' per-order facts.
 */
export const orderReportFacts = pgTable(
  'order_report_facts',
  {
    orderId: uuid().primaryKey(),
    storeCode: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    customerId: uuid(),
    subscription: boolean().notNull(),
    totalCents: bigint({ mode: 'number' }).notNull(),
    givenCents: bigint({ mode: 'number' }).notNull(),
    units: integer().notNull(),
    /** The lines with a product: [{p: product id, n: name, q: quantity, s: price × quantity in cents}]. */
    lines: jsonb().notNull(),
  },
  (t) => [index('order_report_facts_day').on(t.storeCode, t.day), index('order_report_facts_customer').on(t.customerId).where(sql`${t.customerId} is not null`)],
);

/** Per store and UTC day, plan orders or one-time: gross sales, given back, orders kept (not given back in full) and their units. */
export const orderDailyFacts = pgTable(
  'order_daily_facts',
  {
    storeCode: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    subscription: boolean().notNull(),
    salesCents: bigint({ mode: 'number' }).notNull(),
    givenCents: bigint({ mode: 'number' }).notNull(),
    orders: integer().notNull(),
    units: integer().notNull(),
    /**
     * Which writer's row (migration report_summary_plans): a paid order adds to the rows of the slot its
     * transaction holds (the lowest free one, `report_summary_slot()`), so concurrent checkouts do not queue
     * on the day's one row. The reports sum over slots; a quiet shop writes slot 0 only.
     */
    slot: smallint().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storeCode, t.day, t.subscription, t.slot] })],
);

/** Per store, UTC day and product: units and line sales of the kept orders, and the latest line's name (`name_at`: its order's time). */
export const orderDailyProducts = pgTable(
  'order_daily_products',
  {
    storeCode: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    productId: integer().notNull(),
    units: integer().notNull(),
    salesCents: bigint({ mode: 'number' }).notNull(),
    name: text(),
    nameAt: timestamp({ withTimezone: true }),
    /** Which writer's row: see `orderDailyFacts.slot`. */
    slot: smallint().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storeCode, t.day, t.productId, t.slot] })],
);

/**
 * A customer's days with a kept order (per store): orders, net revenue, the customer's first paid order's
 * day (`first_day`, 'infinity' when unknown) and the customer's previous day with a kept order
 * (`prev_day`, '-infinity' for none): what counts a customer once in a range of days.
 */
export const customerReportDays = pgTable(
  'customer_report_days',
  {
    customerId: uuid().notNull(),
    storeCode: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    firstDay: date({ mode: 'string' }).notNull(),
    prevDay: date({ mode: 'string' }).notNull(),
    orders: integer().notNull(),
    revenueCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.storeCode, t.day] })],
);

/** `customer_report_days` summed per store, day, first day and previous day: the new vs returning report's rows. */
export const orderDailyCustomers = pgTable(
  'order_daily_customers',
  {
    storeCode: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    firstDay: date({ mode: 'string' }).notNull(),
    prevDay: date({ mode: 'string' }).notNull(),
    customers: integer().notNull(),
    orders: integer().notNull(),
    revenueCents: bigint({ mode: 'number' }).notNull(),
    /** Which writer's row: see `orderDailyFacts.slot`. */
    slot: smallint().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storeCode, t.day, t.firstDay, t.prevDay, t.slot] })],
);

/**
 * What the summary has still to take in (migration report_summary_deferred): the triggers of the order,
 * payment and store credit writes add the orders (or, when a customer's first order moved, the customer)
 * whose figures may have changed, and `report_catch_up` folds them into the summary in batches, from the
 * worker (every REPORT_CATCH_UP_MS) and before every report read, so the reports stay exact while a
 * checkout's transaction no longer recounts them. No unique key: a trigger's insert never waits.
 */
export const reportPending = pgTable('report_pending', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  orderId: uuid(),
  customerId: uuid(),
});

export const subscriptionSkippedPeriods = pgTable(
  'subscription_skipped_periods',
  {
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** yyyy-MM-dd of the period's billing date (UTC), as payment_transactions.billing_period. */
    billingPeriod: text().notNull(),
    reason: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.billingPeriod] })],
);

/**
 * Bulk swaps (issue 21): staff replace one product (or one size of it) with another on every plan that
 * has it. The run is a job (workers/src/bulk-swap/); progress is read from here. Its plans are recorded
 * once, when the job first starts (`bulk_swap_plans`, every one `pending`), and each is settled in the
 * transaction of its plan change, so a job killed and run again never changes a plan twice.
 */
export const bulkSwapRuns = pgTable('bulk_swap_runs', {
  id: uuid().primaryKey().defaultRandom(),
  fromProductId: integer().notNull(),
  /** The size (variant SKU) swapped away; null: every line of the product. */
  fromVariantSku: text(),
  toProductId: integer().notNull(),
  /** The size (variant SKU) swapped in; null: the product has no sizes. */
  toVariantSku: text(),
  reason: text().notNull(),
  /** queued | running | completed | failed */
  status: text().notNull().default('queued'),
  /** Plans recorded for the run (set when the job records them; null before). */
  total: integer(),
  staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
  staffEmail: text().notNull(),
  staffRole: staffRole(),
  error: text(),
  createdAt: createdAt(),
  startedAt: timestamp({ withTimezone: true }),
  finishedAt: timestamp({ withTimezone: true }),
});

/** One plan of a bulk swap: pending until the job settles it (swapped, merged, skipped: why, or failed). */
export const bulkSwapPlans = pgTable(
  'bulk_swap_plans',
  {
    runId: uuid()
      .notNull()
      .references(() => bulkSwapRuns.id, { onDelete: 'cascade' }),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** pending | swapped | merged | skipped-changed | skipped-ended | skipped-busy | skipped-quantity | failed */
    outcome: text().notNull().default('pending'),
    /** The plan change's audit row (swapped or merged). */
    auditId: bigint({ mode: 'number' }),
    settledAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.subscriptionId] })],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    storeCode: varchar({ length: 10 }).notNull().default('NH'),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    customerEmail: text().notNull(),
    customerName: text().notNull(),
    customerPhone: text(),
    shippingAddress: jsonb().$type<Address>().notNull(),
    billingAddress: jsonb().$type<Address>(),
    items: jsonb().$type<LineItem[]>().notNull(),
    subtotal: money(10).notNull(),
    /** Subscribe & Save plus promo discount (not in the first version's schema; kept for the summary). */
    discount: money(10).notNull().default(0),
    /**
     * The two parts of `discount`, each shown on its own line (issue 19): the Subscribe & Save discount and
     * the promo code's. New orders write both and `discount` is their sum; an order from before they were
     * kept apart whose discount could not be split (migration order_discount_parts) has both 0, and its
     * `discount` is shown as one "Discount" line.
     */
    subscribeDiscount: money(10).notNull().default(0),
    promoDiscount: money(10).notNull().default(0),
    shipping: money(10).notNull(),
    tax: money(10).notNull(),
    total: money(10).notNull(),
    /** Standard or express (issue 25); renewals are always standard. */
    shippingMethod: text().$type<ShippingMethod>().notNull().default('standard'),
    /** The part of `tax` due on shipping (a provider's answer; 0 under the flat rule and the table). */
    shippingTax: money(10).notNull().default(0),
    /** Where the tax came from (@nh/server tax TaxSource): flat, table, taxjar, table-fallback, no-nexus; null before issue 25. */
    taxSource: text().$type<TaxSourceName>(),
    /**
     * The part of `total` paid with store credit (issue 23): spent from the account's ledger in the
     * transaction that made the order; the card was charged `total - credit_applied`.
     */
    creditApplied: money(10).notNull().default(0),
    promoCode: varchar({ length: 50 }),
    status: orderStatus().notNull().default('pending'),
    trackingNumber: text(),
    carrier: text(),
    deliveredDate: timestamp({ withTimezone: true }),
    customerNotes: text(),
    paymentTransactionId: text(),
    subscriptionId: uuid().references(() => subscriptions.id, { onDelete: 'set null' }),
    /**
     * The customer the order belongs to (issue 23): the account's when `userId` is set, else the customer
     * of its normalised email. Set by the database (trigger `orders_customer`, migration customers), never
     * by the application, so every writer of orders keeps it and the customer's figures.
     */
    customerId: uuid().references((): AnyPgColumn => customers.id, { onDelete: 'set null', onUpdate: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    netsuiteOrderId: text(),
    netsuiteCustomerId: text(),
    /** pending | synced | failed | not_configured */
    netsuiteSyncStatus: text().notNull().default('pending'),
    netsuiteSyncError: text(),
    netsuiteSyncedAt: timestamp({ withTimezone: true }),
    /**
     * How many times staff corrected the shipping address of the unshipped order (issue 23), and how many
     * of those NetSuite's sales order carries: the sync sends the sales order again while the first is ahead.
     */
    addressRevision: integer().notNull().default(0),
    netsuiteAddressRevision: integer().notNull().default(0),
    /**
     * A $0 replacement order of a damage claim (issue 23): the order it replaces. NetSuite's sales order of
     * a replacement carries the original's external id (docs/decisions/claims.md).
     */
    replacementOfOrderId: uuid().references((): AnyPgColumn => orders.id, { onDelete: 'set null' }),
  },
  (t) => [
    index().on(t.storeCode, t.createdAt),
    index().on(t.storeCode, t.status),
    index().on(t.netsuiteSyncStatus),
    // The back office's order table: every filter is a store's orders by date; a status, NetSuite status
    // or promo filter narrows it (bench:admin, 1,000,000 orders).
    index('orders_store_promo_created').on(t.storeCode, t.promoCode, t.createdAt).where(sql`${t.promoCode} is not null`),
    check('orders_discount_parts', sql`${t.subscribeDiscount} >= 0 and ${t.promoDiscount} >= 0 and ${t.subscribeDiscount} + ${t.promoDiscount} <= ${t.discount}`),
    index('orders_store_total').on(t.storeCode, t.total, t.id),
    // The table's search: any part of the customer's name or email (pg_trgm, migration 0010).
    index('orders_search_trgm').using('gin', sql`(${t.customerName} || ' ' || ${t.customerEmail}) gin_trgm_ops`),
    // A plan's orders (the back office's plan detail lists every order of a plan).
    index().on(t.subscriptionId),
    // A customer's orders (the back office's customer page, and the customer's figures kept by triggers).
    index('orders_customer').on(t.customerId, t.createdAt),
    // No index on customer_email: no query looks orders up by it (admin search is a substring match),
    // and each order row is written three times (placed, paid, synced), every index each time.
  ],
);

export const paymentTransactions = pgTable(
  'payment_transactions',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid().references(() => orders.id, { onDelete: 'set null' }),
    subscriptionId: uuid().references(() => subscriptions.id, { onDelete: 'set null' }),
    /** Provider's transaction id. */
    authnetTransactionId: text(),
    /** Stable invoice number per logical charge (ORD-…, S<id>-<yymmdd>: payments/gateway.ts). */
    invoiceNumber: varchar({ length: 20 }),
    /** For renewals: the billing period (yyyy-MM-dd of the due date); unique per subscription. */
    billingPeriod: text(),
    amount: money(10).notNull(),
    status: paymentStatus().notNull().default('pending'),
    responseCode: text(),
    responseMessage: text(),
    cardType: text(),
    cardLastFour: varchar({ length: 4 }),
    environment: text(),
    kind: paymentKind().notNull().default('charge'),
    /** A refund's or void's charge. */
    parentId: uuid().references((): AnyPgColumn => paymentTransactions.id, { onDelete: 'restrict' }),
    /** Why staff refunded or voided (shown on the order's timeline). */
    reason: text(),
    /** The staff member who refunded or voided. */
    staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
    /** The refund request's Idempotency-Key: a repeat answers the first refund instead of refunding twice. */
    idempotencyKey: text(),
    /** The refund put the order's items back in stock. */
    restocked: boolean().notNull().default(false),
    /**
     * A refund by line (issue 23): which of the order's lines (0-based index), how many of each, what each
     * gave back (cents) and whether those items went back in stock. Null for a refund by amount. The
     * approved and pending rows' lines are what is already refunded of each line.
     */
    refundLines: jsonb().$type<RefundLinePart[]>(),
    /** The cents of the order's shipping given back by this refund (a refund by line "with shipping"). */
    refundShipping: money(10).notNull().default(0),
    /**
     * An approved refund or void in NetSuite: the internal id of its credit memo (a refund) or of the
     * sales order it closed (a void). Null until the order's NetSuite sync has carried it.
     */
    netsuiteRecordId: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.orderId),
    uniqueIndex('payment_transactions_subscription_period').on(t.subscriptionId, t.billingPeriod),
    index('payment_transactions_parent').on(t.parentId),
    uniqueIndex('payment_transactions_refund_key').on(t.parentId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    // The sales reports (issue 23): what was given back of a range's orders, read as a few rows per refunded order.
    index('payment_transactions_given_back').on(t.orderId).where(sql`${t.kind} in ('refund', 'void') and ${t.status} = 'approved'`),
  ],
);

export const promoCodes = pgTable('promo_codes', {
  id: serial().primaryKey(),
  code: varchar({ length: 50 }).notNull().unique(),
  discountType: varchar({ length: 20 }).notNull(),
  discountValue: integer().notNull(),
  isActive: boolean().notNull().default(true),
  /** Single-use codes (newsletter welcome) are spent by the first order that redeems them. */
  singleUse: boolean().notNull().default(false),
  redeemedAt: timestamp({ withTimezone: true }),
  redeemedOrderId: uuid(),
  /** Who a personal code was issued to (e.g. `newsletter:<subscriber id>`): one code per recipient. */
  issuedFor: text().unique(),
  createdAt: createdAt(),
});

/** Orders whose NetSuite sync failed after its last attempt. */
/**
 * The NetSuite ledger: every request of every sync attempt (time, record, HTTP status, NetSuite's error
 * code and detail, duration), shown on the order; kept for NETSUITE_LEDGER_RETENTION_DAYS.
 */
export const netsuiteSyncAttempts = pgTable(
  'netsuite_sync_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** customer | salesOrder */
    record: text().notNull(),
    /** ok | failed */
    outcome: text().notNull(),
    httpStatus: integer(),
    errorCode: text(),
    errorDetail: text(),
    durationMs: integer().notNull(),
  },
  (t) => [index('netsuite_sync_attempts_order').on(t.orderId, t.at), index('netsuite_sync_attempts_at').on(t.at)],
);

export const failedSyncOrders = pgTable('netsuite_failed_syncs', {
  orderId: uuid()
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  payload: jsonb(),
  errorMessage: text(),
  attempts: integer().notNull().default(0),
  lastAttemptAt: timestamp({ withTimezone: true }),
});

// ---------------------------------------------------------------- pipeline (design additions)
/** Transactional outbox: written with the business row, relayed to BullMQ by the workers. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    topic: text().notNull(),
    payload: jsonb().notNull(),
    createdAt: createdAt(),
    publishedAt: timestamp({ withTimezone: true }),
    /** The API request that wrote the row (its `x-request-id`), carried into the jobs the relay makes (docs/decisions/observability.md). */
    requestId: text(),
    /**
     * The W3C `traceparent` of the span that wrote the row, when OpenTelemetry tracing is on: the jobs the
     * relay makes of the row run as its children (docs/decisions/observability.md, "Traces").
     */
    traceParent: text(),
  },
  (t) => [index('outbox_unpublished').on(t.id).where(sql`${t.publishedAt} is null`)],
);

export const exports = pgTable('exports', {
  id: uuid().primaryKey().defaultRandom(),
  storeCode: varchar({ length: 10 }).notNull(),
  /** What is exported: orders (the first export) or subscriptions (issue 21). */
  kind: text().notNull().default('orders'),
  /** queued | running | completed | failed */
  status: text().notNull().default('queued'),
  rowsDone: integer().notNull().default(0),
  rowsTotal: integer(),
  fileName: text(),
  filePath: text(),
  error: text(),
  /** Who asked for it (the export history). */
  staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
  staffEmail: text(),
  /** The filters it was asked with (date range, status). */
  filters: jsonb().$type<Record<string, unknown>>(),
  sizeBytes: bigint({ mode: 'number' }),
  /** The file is deleted after this time (EXPORT_RETENTION_HOURS after it finished). */
  expiresAt: timestamp({ withTimezone: true }),
  fileDeletedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
  startedAt: timestamp({ withTimezone: true }),
  finishedAt: timestamp({ withTimezone: true }),
});

// ---------------------------------------------------------------- customers (issue 23)
/**
 * Everyone who bought, subscribed or signed up, one row per normalised email (lower-cased, trimmed):
 * guests' orders and an account's joined by email. An account's row has `id` = `users.id` (the store
 * credit ledger and every admin URL use it); a guest's row has a random id, and becomes the account's
 * (its id changed to the account's, `guestId` keeping the old one) when an account is made with that
 * email. The figures are kept by triggers on orders and payment_transactions (migration customers), in
 * the transaction of each write: docs/decisions/admin.md, "Customers".
 */
export const customers = pgTable(
  'customers',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Normalised: lower(trim(email)). */
    email: text().notNull().unique(),
    /** The account (its id is this row's id); null for a guest. */
    userId: uuid()
      .unique()
      .references(() => users.id, { onDelete: 'set null' }),
    /** The id the row had as a guest, before an account took it over (old links keep working). */
    guestId: uuid().unique(),
    /** The name on the latest order, else the account's. */
    name: text(),
    /** Orders that took money (paid and not cancelled). */
    orderCount: integer().notNull().default(0),
    /** Cents: the paid orders' totals less what was given back (approved refunds and voids). */
    spendCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Cents given back of the paid orders (approved refunds and voids). */
    refundedCents: bigint({ mode: 'number' }).notNull().default(0),
    firstOrderAt: timestamp({ withTimezone: true }),
    lastOrderAt: timestamp({ withTimezone: true }),
    /** Staff's tags (lower-cased words), filterable. */
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    /** Set when the customer's personal fields were replaced (a privacy request). */
    anonymisedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('customers_last_order').on(sql`${t.lastOrderAt} desc nulls last`, t.id),
    index('customers_spend').on(sql`${t.spendCents} desc`, t.id),
    index('customers_tags').using('gin', t.tags),
    index('customers_search_trgm').using('gin', sql`(coalesce(${t.name}, '') || ' ' || ${t.email}) gin_trgm_ops`),
  ],
);

/** Staff's notes on a customer or on one of their orders (then both pages show it). Append-only in use. */
export const customerNotes = pgTable(
  'customer_notes',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    customerId: uuid().references(() => customers.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    /** Set for a note written on an order. */
    orderId: uuid().references(() => orders.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
    staffName: text().notNull(),
    staffEmail: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_notes_customer').on(t.customerId, t.at), index('customer_notes_order').on(t.orderId, t.at)],
);

/** Stock changed by hand in the back office, with the reason staff gave (the inventory log). */
export const inventoryAdjustments = pgTable(
  'inventory_adjustments',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    delta: integer().notNull(),
    inventoryAfter: integer().notNull(),
    reason: text().notNull(),
    staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
    staffEmail: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inventory_adjustments_product').on(t.productId, t.at)],
);

export const emailLog = pgTable(
  'email_log',
  {
    id: serial().primaryKey(),
    kind: text().notNull(),
    subjectId: text().notNull(),
    toAddress: text().notNull(),
    /** pending | sent | failed */
    status: text().notNull().default('pending'),
    messageId: text(),
    error: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_log_kind_subject').on(t.kind, t.subjectId),
    // The emails a customer was sent (the back office's customer page).
    index('email_log_to_address').on(sql`lower(${t.toAddress})`, t.createdAt),
  ],
);

/** One row per checkout attempt key: a retry returns the stored answer instead of charging again. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text().notNull(),
    scope: text().notNull(),
    requestHash: text().notNull(),
    /**
     * The order the checkout reserved under this key, so the payment reconciliation can finish the key
     * with the final answer when the API died before giving it, or gave the 502 of an unknown outcome.
     */
    orderId: uuid(),
    statusCode: integer(),
    response: jsonb(),
    createdAt: createdAt(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    // Only keys the payment reconciliation may still answer are looked up by order (unfinished, or the
    // 502 of an unknown outcome): the index stays as small as the work in flight.
    index('idempotency_keys_unsettled_order').on(t.orderId).where(sql`status_code is null or status_code = 502`),
  ],
);

// ---------------------------------------------------------------- store credit (issue 23)
/**
 * What a store-credit ledger row records: credit given by staff (grant), a refund given as credit
 * (refund), credit spent on an order or renewal (spend), a spend given back because its payment failed
 * (reverse), credit that lapsed (expire).
 */
export const storeCreditKind = pgEnum('store_credit_kind', ['grant', 'refund', 'spend', 'reverse', 'expire']);

/**
 * A shopper account's credit balance, integer cents, never negative (the check refuses it, whatever
 * writes). The one row every ledger write locks (`FOR UPDATE`) before it appends: writes of one
 * account are serialised, those of different accounts never wait for each other.
 */
export const storeCreditBalances = pgTable(
  'store_credit_balances',
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balanceCents: integer().notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check('store_credit_balance_not_negative', sql`${t.balanceCents} >= 0`)],
);

/**
 * The store-credit ledger: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). Each row is
 * one movement, signed integer cents (grant, refund, reverse positive; spend, expire negative), with
 * the balance after it. `reference` makes a movement happen once (e.g. `order:<id>:spend`): a retry
 * finds the row instead of moving money twice.
 */
export const storeCreditEntries = pgTable(
  'store_credit_entries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: storeCreditKind().notNull(),
    amountCents: integer().notNull(),
    balanceAfterCents: integer().notNull(),
    reason: text(),
    /** The staff member who granted it or refunded to credit. */
    staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
    orderId: uuid().references(() => orders.id, { onDelete: 'set null' }),
    subscriptionId: uuid().references(() => subscriptions.id, { onDelete: 'set null' }),
    /** Unique idempotency reference of a movement that must happen once (null for a staff grant without one). */
    reference: text(),
    /** A goodwill grant's expiry (STORE_CREDIT_EXPIRY_DAYS when given): what is left of it then expires. Null: never. */
    expiresAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('store_credit_entries_user').on(t.userId, t.createdAt),
    index('store_credit_entries_order').on(t.orderId),
    uniqueIndex('store_credit_entries_reference').on(t.reference).where(sql`${t.reference} is not null`),
    check('store_credit_entries_sign', sql`(${t.kind} in ('grant', 'refund', 'reverse') and ${t.amountCents} > 0) or (${t.kind} in ('spend', 'expire') and ${t.amountCents} < 0)`),
    check('store_credit_entries_balance', sql`${t.balanceAfterCents} >= 0`),
    check('store_credit_entries_expiry_on_grants', sql`${t.expiresAt} is null or ${t.kind} = 'grant'`),
    index('store_credit_entries_expiring').on(t.expiresAt).where(sql`${t.expiresAt} is not null`),
  ],
);

/**
 * What NetSuite has of a store-credit movement (issue 23; docs/decisions/store-credit.md, "NetSuite"):
 * a grant's or a refund to credit's credit memo and the customer refund that moves it into the
 * store-credit liability, or an expiry's journal entry. One row per ledger entry the sync carried (the
 * ledger itself is append-only); `status` synced, failed (after the last attempt, with `error`) or
 * not_configured.
 */
export const storeCreditNetsuiteSyncs = pgTable('store_credit_netsuite_syncs', {
  entryId: bigint({ mode: 'number' })
    .primaryKey()
    .references(() => storeCreditEntries.id),
  status: text().notNull(),
  netsuiteCustomerId: text(),
  /** The NetSuite internal ids made, by record (`creditMemo`, `customerRefund`, `journalEntry`). */
  netsuiteRecords: jsonb().$type<Record<string, string>>(),
  error: text(),
  attempts: integer().notNull().default(0),
  updatedAt: updatedAt(),
});

/** Damage claims (issue 23): where a claim stands. */
export const claimStatus = pgEnum('claim_status', ['awaiting_review', 'resolved', 'declined']);
export const claimResolution = pgEnum('claim_resolution', ['replace', 'refund', 'credit']);

/** One line of a claim: the 0-based index of the order's line and how many of it. */
export interface ClaimLine {
  line: number;
  quantity: number;
}

/**
 * A damage claim on an order (issue 23; docs/decisions/claims.md): made by staff (resolved at once) or
 * reported by the shopper (awaiting review, unless the owner's rule approves it). `idempotency_key` makes
 * a second click the same claim. `amount_cents` is the claimed lines' value (what a refund or credit gives).
 */
export const claims = pgTable(
  'claims',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    idempotencyKey: text().notNull(),
    source: text().notNull().$type<'staff' | 'shopper'>(),
    lines: jsonb().$type<ClaimLine[]>().notNull(),
    reason: text().notNull(),
    note: text(),
    /** The stored picture's key (file storage, under claims/), when one was sent. */
    photoKey: text(),
    status: claimStatus().notNull(),
    resolution: claimResolution(),
    amountCents: integer().notNull(),
    replacementOrderId: uuid().references((): AnyPgColumn => orders.id, { onDelete: 'set null' }),
    /** Staff who made or decided it (null: the shopper, or the owner's rule). */
    staffId: uuid().references(() => staff.id, { onDelete: 'set null' }),
    /** Why it was approved without staff (the owner's rule), or staff's words when declining. */
    decisionNote: text(),
    decidedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('claims_order_key').on(t.orderId, t.idempotencyKey),
    index('claims_status').on(t.status, t.createdAt),
    index('claims_created').on(t.createdAt),
  ],
);

/** The owner's auto-approval rule for shoppers' claims (one row, id 1). */
export const claimSettings = pgTable('claim_settings', {
  id: integer().primaryKey().default(1),
  autoApprove: boolean().notNull().default(false),
  /** A claim worth at most this much (cents) is approved as a replacement when it is the account's or email's first in `windowMonths`. */
  maxAmountCents: integer().notNull().default(2500),
  windowMonths: integer().notNull().default(12),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- row types
/** Rows as the client reads them (money in integer cents): the one source of every row shape. */
export type OrderRow = typeof orders.$inferSelect;
export type ClaimRow = typeof claims.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type StaffRow = typeof staff.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type CustomerNoteRow = typeof customerNotes.$inferSelect;
