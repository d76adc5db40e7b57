/**
 * The numbers staff steer by (issue 23): `GET /api/admin/reports/{sales,top-products,customers,revenue-mix}
 * ?from&to` (reports.view). Days are UTC calendar days (the shop defines no time zone of its own),
 * yyyy-mm-dd, both included; the previous period is the same number of days ending the day before `from`.
 * Money is integer cents. The counting rules are the dashboard's: an order counts when it took money
 * (processing, shipped, delivered) and kept some of it (an order refunded or voided in full is no sale),
 * on the day it was placed; what was given back (approved card refunds and voids, refunds to store credit) counts against its order's day.
 */
import { z } from 'zod';

/** At most this many days in a report's range (a year, leap day included). */
export const REPORT_MAX_DAYS = 366;
/** The dashboard's default range: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30;

export const REPORT_MESSAGES = {
  from: 'Choose a start date (from) as yyyy-mm-dd, e.g. 2027-01-31.',
  to: 'Choose an end date (to) as yyyy-mm-dd, e.g. 2027-01-31.',
  order: 'The start date (from) must be on or before the end date (to).',
  span: `Choose a range of at most ${REPORT_MAX_DAYS} days.`,
  limit: 'Choose how many products to show: a whole number from 1 to 50.',
} as const;

const DAY_MS = 86_400_000;
/** A real calendar day written yyyy-mm-dd (2027-02-30 is refused, not rolled over). */
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00.000Z`).toISOString().slice(0, 10) === value;
const dayField = (message: string) => z.string({ message }).refine(isDay, message);

/** Days from `from` to `to`, both included. */
export const daysInRange = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
/** The day `n` days after `day` (negative: before). */
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);

export const reportRangeSchema = z
  .object({ from: dayField(REPORT_MESSAGES.from), to: dayField(REPORT_MESSAGES.to) })
  .refine((q) => q.from <= q.to, { message: REPORT_MESSAGES.order, path: ['from'] })
  .refine((q) => q.from > q.to || daysInRange(q.from, q.to) <= REPORT_MAX_DAYS, { message: REPORT_MESSAGES.span, path: ['to'] });
export type ReportRange = z.infer<typeof reportRangeSchema>;

export const topProductsQuerySchema = z.intersection(
  reportRangeSchema,
  z.object({ limit: z.coerce.number({ message: REPORT_MESSAGES.limit }).int(REPORT_MESSAGES.limit).min(1, REPORT_MESSAGES.limit).max(50, REPORT_MESSAGES.limit).default(10) }),
);

/** The previous period of a range: as many days, ending the day before `from`. */
export function previousRange({ from, to }: ReportRange): ReportRange {
  const days = daysInRange(from, to);
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** A range and the one before it, as every report answers them. */
export interface ReportPeriods {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
}

export interface SalesFigures {
  /** Gross sales: the counted orders' totals (tax and shipping included), before anything was given back. */
  salesCents: number;
  /** Orders counted (paid, not given back in full). */
  orders: number;
  /** Net revenue per order, rounded half up to the cent; 0 without orders. */
  averageOrderCents: number;
  /** Items in the counted orders (each line's quantity). */
  units: number;
  /** Given back (approved card refunds and voids, refunds to store credit) of the period's paid orders. */
  refundsCents: number;
  /** salesCents - refundsCents. */
  netRevenueCents: number;
}
export interface SalesReport extends ReportPeriods {
  current: SalesFigures;
  previous: SalesFigures;
}

export interface TopProduct {
  productId: number;
  /** The name on the latest order line. */
  name: string;
  units: number;
  /** Line prices × quantities (before order discounts, tax and shipping). */
  salesCents: number;
  previousUnits: number;
  previousSalesCents: number;
}
export interface TopProductsReport extends ReportPeriods {
  /** By units in the range, most first (then sales, then product id). */
  products: TopProduct[];
}

export interface CustomerFigures {
  /** Customers whose first paid order was placed in the period. */
  newCustomers: number;
  /** Customers with a paid order in the period whose first was placed before it. */
  returningCustomers: number;
  newOrders: number;
  returningOrders: number;
  newRevenueCents: number;
  returningRevenueCents: number;
}
export interface CustomersReport extends ReportPeriods {
  current: CustomerFigures;
  previous: CustomerFigures;
}

export interface RevenueMixFigures {
  /** Orders of a plan (its first delivery and renewals) and their net revenue. */
  subscriptionOrders: number;
  subscriptionRevenueCents: number;
  oneTimeOrders: number;
  oneTimeRevenueCents: number;
}
export interface RevenueMixReport extends ReportPeriods {
  current: RevenueMixFigures;
  previous: RevenueMixFigures;
}

/** Staff words for each figure (the dashboard's labels). */
export const SALES_FIGURE_LABELS: Record<keyof SalesFigures, string> = {
  salesCents: 'Sales',
  orders: 'Orders',
  averageOrderCents: 'Average order',
  units: 'Units sold',
  refundsCents: 'Refunds',
  netRevenueCents: 'Net revenue',
};

/** MRR movement between two snapshot days: plans and the change in cents (churned and contraction as losses, positive). */
export interface MrrMovement {
  /** The snapshot days compared (the latest on or before `from`, else the first after it; the latest on or before `to`). */
  startDay: string;
  endDay: string;
  startMrrCents: number;
  endMrrCents: number;
  /**
   * Each the sum of the daily movements after startDay up to endDay (a plan that churned and came back
   * counts in both churned and reactivated). startMrr + new + expansion + reactivated - contraction - churned = endMrr.
   */
  newCents: number;
  expansionCents: number;
  contractionCents: number;
  churnedCents: number;
  reactivatedCents: number;
  plans: { new: number; expansion: number; contraction: number; churned: number; reactivated: number };
  /**
   * Plans earning on the start day; churn rate: the range's churn movements ÷ those plans, and churned MRR ÷
   * the start day's MRR, in percent to one decimal (a plan that churned twice counts twice).
   */
  plansAtStart: number;
  planChurnRatePercent: number | null;
  mrrChurnRatePercent: number | null;
}

/** Staff words for the movement's kinds. */
export const MRR_MOVEMENT_LABELS = {
  new: 'New plans',
  expansion: 'Expansion (plans raised)',
  contraction: 'Contraction (plans lowered)',
  churned: 'Churned (cancelled or paused)',
  reactivated: 'Reactivated',
} as const;

/** GET /api/admin/reports/subscriptions?from&to. */
export interface SubscriptionsReport {
  from: string;
  to: string;
  /** Monthly recurring revenue now: each active plan's amount / months between deliveries, rounded half up to the cent per plan. */
  mrrNowCents: number;
  activePlansNow: number;
  /** The first day a snapshot was kept (null: none yet); movement is known only from then. */
  snapshotsFrom: string | null;
  /** Null when the range does not hold two different snapshot days. */
  movement: MrrMovement | null;
  /** The cancellations of the range (the cancellation report's data): by reason in words, and the save offers. */
  cancellations: {
    total: number;
    byReason: { reason: string; count: number }[];
    offersShown: number;
    offersAccepted: number;
    plansSaved: number;
    /** Plans saved / (plans saved + cancellations), percent to one decimal; null when neither happened. */
    saveRatePercent: number | null;
  };
}

/** How far ahead stock cover looks: renewals due and the sales rate over this many days. */
export const STOCK_COVER_DAYS = 30;

/** One product's stock cover (GET /api/admin/reports/stock-cover). */
export interface StockCoverProduct {
  productId: number;
  name: string;
  inStock: number;
  /** Units the active plans' renewals due in the next 30 days take (their recurring items). */
  renewalUnits: number;
  /** Units of one-time add-ons riding with those renewals. */
  addOnUnits: number;
  /** Units sold in one-time orders over the last 30 days (the current sales rate, taken as the next 30 days'). */
  soldLast30Days: number;
  /** Days the stock lasts at the next 30 days' need (renewals + add-ons + sales rate), one decimal; null: nothing needed. */
  daysOfCover: number | null;
  /**
   * yyyy-mm-dd (UTC): the first renewal due in the next 30 days that the stock will not cover (the renewals
   * before it, their add-ons and the sales rate until its day come first); null: every renewal is covered.
   */
  runsShortOn: string | null;
  /** Plans due from that day on with the product (their deliveries are at risk). */
  plansShort: number;
}
export interface StockCoverReport {
  generatedAt: string;
  /** Products that will run short first (soonest first), then the rest by days of cover (least first). */
  products: StockCoverProduct[];
}
