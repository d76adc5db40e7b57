/**
 * The back office's reads of plans (api admin/subscriptions): the plan table, a plan's billing history,
 * the database's today, and the at-risk list (which shares the renewal sweep's "items unavailable" rule
 * and the stored card's expiry). A staff action on a plan is a plan change (changes.ts).
 */
import { and, asc, count, desc, eq, gte, ilike, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { AtRiskReason, ShortItem, UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';
import type { SkippedPeriodReason, SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { DbOrTx } from '../../db/client';
import { orders, paymentTransactions, subscriptions, subscriptionSkippedPeriods, type SubscriptionRow } from '../../db/schema';
import { escapeLike } from '../search';
import { CARD_EXPIRING_SQL, DAY_MS, TODAY_SQL, UNAVAILABLE_JOIN } from './plan';
import { stockCoverCtes } from '../stock-cover';

export interface AdminSubscriptionFilter {
  /** Part of the customer's name or email, or the start of the plan id. */
  search?: string;
  status?: SubscriptionStatus;
  /** UTC days (yyyy-MM-dd), both ends included. */
  dueFrom?: string;
  dueTo?: string;
  minFailedAttempts?: number;
  limit: number;
  offset: number;
}

const ID_PREFIX = /^[0-9a-f-]{1,36}$/i;

/** A plan id prefix as a range of the primary key (`1a2b` is 1a2b0000-… to 1a2bffff-…). */
function planIdPrefix(search: string): SQL | undefined {
  if (!ID_PREFIX.test(search)) return undefined;
  const hex = search.toLowerCase().replace(/-/g, '');
  if (hex.length === 0 || hex.length > 32) return undefined;
  const asUuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return and(gte(subscriptions.id, asUuid(hex.padEnd(32, '0'))), lte(subscriptions.id, asUuid(hex.padEnd(32, 'f'))));
}

function adminSubscriptionWhere(q: Omit<AdminSubscriptionFilter, 'limit' | 'offset'>): SQL | undefined {
  const search = q.search?.trim();
  return and(
    search ? or(ilike(sql`${subscriptions.customerName} || ' ' || ${subscriptions.customerEmail}`, `%${escapeLike(search)}%`), planIdPrefix(search)) : undefined,
    q.status ? eq(subscriptions.status, q.status) : undefined,
    q.dueFrom ? gte(subscriptions.nextBillingDate, new Date(`${q.dueFrom}T00:00:00Z`)) : undefined,
    q.dueTo ? lt(subscriptions.nextBillingDate, new Date(Date.parse(`${q.dueTo}T00:00:00Z`) + DAY_MS)) : undefined,
    q.minFailedAttempts !== undefined && q.minFailedAttempts > 0 ? gte(subscriptions.failedAttempts, q.minFailedAttempts) : undefined,
  );
}

/** One page of plans, soonest next billing date first, and how many match. */
export async function listAdminSubscriptions(db: DbOrTx, q: AdminSubscriptionFilter): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const where = adminSubscriptionWhere(q);
  const [rows, [counted]] = await Promise.all([
    db.select().from(subscriptions).where(where).orderBy(asc(subscriptions.nextBillingDate), asc(subscriptions.id)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(subscriptions).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/** What the back office shows of a plan's billing: each period's charge row, its skipped periods, every order it made. */
export interface PlanBilling {
  charges: Array<{
    period: string;
    status: (typeof paymentTransactions.$inferSelect)['status'];
    amount: number;
    orderId: string | null;
    message: string | null;
    cardType: string | null;
    cardLastFour: string | null;
    at: Date;
  }>;
  skipped: Array<{ period: string; reason: SkippedPeriodReason; at: Date }>;
  orders: Array<{ id: string; status: string; total: number; createdAt: Date }>;
}

/**
 * A plan's billing: the charge rows (one per period; refunds and voids are their own rows, not read
 * here), the skipped periods, and every order of the plan (a failed attempt's cancelled order too),
 * newest first (by the orders (subscription_id) index, migration 0012).
 */
export async function planBilling(db: DbOrTx, subscriptionId: string): Promise<PlanBilling> {
  const p = paymentTransactions;
  const [charges, skipped, planOrders] = await Promise.all([
    db
      .select({
        period: sql<string>`${p.billingPeriod}`,
        status: p.status,
        amount: p.amount,
        orderId: p.orderId,
        message: p.responseMessage,
        cardType: p.cardType,
        cardLastFour: p.cardLastFour,
        at: p.createdAt,
      })
      .from(p)
      .where(and(eq(p.subscriptionId, subscriptionId), eq(p.kind, 'charge'), isNotNull(p.billingPeriod)))
      .orderBy(desc(p.billingPeriod)),
    db
      .select({ period: subscriptionSkippedPeriods.billingPeriod, reason: sql<SkippedPeriodReason>`${subscriptionSkippedPeriods.reason}`, at: subscriptionSkippedPeriods.createdAt })
      .from(subscriptionSkippedPeriods)
      .where(eq(subscriptionSkippedPeriods.subscriptionId, subscriptionId))
      .orderBy(desc(subscriptionSkippedPeriods.billingPeriod)),
    db
      .select({ id: orders.id, status: orders.status, total: orders.total, createdAt: orders.createdAt })
      .from(orders)
      .where(eq(orders.subscriptionId, subscriptionId))
      .orderBy(desc(orders.createdAt), desc(orders.id)),
  ]);
  return { charges, skipped, orders: planOrders };
}


/** The UTC day (start) by the database's clock, the renewals' clock. */
export async function databaseToday(db: DbOrTx): Promise<Date> {
  const { rows } = await db.execute<{ day: string }>(sql`select ${sql.raw(TODAY_SQL)} as day`);
  return new Date(`${rows[0]!.day}T00:00:00.000Z`);
}

/** An active plan at risk: its row (snake_case, as the statement answers) and why. */
export interface AtRiskRow {
  id: string;
  customer_name: string;
  customer_email: string;
  status: SubscriptionRow['status'];
  items: SubscriptionRow['items'];
  /** numeric as text. */
  amount: string;
  interval: SubscriptionRow['interval'];
  interval_count: number;
  next_billing_date: Date;
  failed_attempts: number;
  retry_at: Date | null;
  created_at: Date;
  cancelled_at: Date | null;
  unavailable_items: UnavailableItem[] | null;
  last_payment_message: string | null;
  /** yyyy-MM-dd: the last day the stored card is good, when known. */
  card_expires_on: string | null;
  /** The stored card expires before the UTC day of the next billing date. */
  card_expiring: boolean;
  /** Items whose stock runs short before this delivery (stock cover's walk), other than those unavailable already. */
  short_items: ShortItem[] | null;
}


/**
 * The items of each plan whose stock runs short before its next delivery (`short_lines`, stock-cover.ts:
 * the one rule), gathered once per plan and materialized, so each plan is a hash lookup: a lateral
 * subquery over `short_lines` itself would scan the whole walk once per plan (at 100,000 plans with a
 * shortage: minutes; bench:admin's at-risk section).
 */
const SHORT_PLANS_CTE = `short_plans as materialized (
    select sl.subscription_id,
           jsonb_agg(jsonb_build_object('productId', sl.product_id, 'productName', sl.name, 'inStock', sl.in_stock, 'runsShortOn', sl.runs_short_on) order by sl.product_id) as items
    from short_lines sl group by sl.subscription_id)`;

/** The plan's short items, leaving out those its next delivery could not have already (item-unavailable). */
const SHORT_JOIN = `left join short_plans sp on sp.subscription_id = s.id
  left join lateral (
    select jsonb_agg(e order by (e ->> 'productId')::int) as items
    from jsonb_array_elements(sp.items) e
    where not coalesce(unavailable.items::jsonb @> jsonb_build_array(jsonb_build_object('productId', (e ->> 'productId')::int)), false)) short on true`;

const AT_RISK_WHERE = `s.status = 'active' and (unavailable.items is not null or s.failed_attempts > 0 or ${CARD_EXPIRING_SQL} or short.items is not null)
  and ($1::text is null or ($1 = 'item-unavailable' and unavailable.items is not null) or ($1 = 'dunning' and s.failed_attempts > 0)
    or ($1 = 'card-expiring' and ${CARD_EXPIRING_SQL}) or ($1 = 'stock-short' and short.items is not null))`;

/**
 * The at-risk list: active plans whose items the next delivery could not have (out of stock, no longer
 * sold, removed), that are in dunning (failed attempts > 0) or whose stored card expires before the next
 * billing date, soonest billing first, and how many.
 */
export async function findAtRiskSubscriptions(
  db: pg.Pool,
  q: { reason?: AtRiskReason; limit: number; offset: number; storeCode: string; stockCoverDays: number },
): Promise<{ rows: AtRiskRow[]; total: number }> {
  const reason = q.reason ?? null;
  // One statement: the stock walk once, the plans at risk materialized (so the page's ORDER BY … LIMIT
  // cannot pick a nested loop over short_plans, whose size the planner cannot know), then the page and
  // the count from them. The count row comes even when the page is empty (an offset past the end).
  const { rows } = await db.query<AtRiskRow & { total: number }>({
    name: 'subscriptions_at_risk',
    text: `with ${stockCoverCtes('$4', '$5')}, ${SHORT_PLANS_CTE},
      at_risk as materialized (
        select s.id, s.next_billing_date, unavailable.items as unavailable_items, short.items as short_items
        from subscriptions s ${UNAVAILABLE_JOIN} ${SHORT_JOIN}
        where ${AT_RISK_WHERE}),
      page as (select * from at_risk order by next_billing_date, id limit $2 offset $3)
      select s.id, s.customer_name, s.customer_email, s.status, s.items, s.amount::text as amount, s.interval, s.interval_count,
        s.next_billing_date, s.failed_attempts, s.retry_at, s.created_at, s.cancelled_at, r.unavailable_items,
        s.card_expires_on::text as card_expires_on, ${CARD_EXPIRING_SQL} as card_expiring, r.short_items,
        case when s.failed_attempts > 0 then (select p.response_message from payment_transactions p
          where p.subscription_id = s.id and p.kind = 'charge' and p.billing_period = to_char(s.next_billing_date at time zone 'UTC', 'YYYY-MM-DD')) end as last_payment_message,
        counted.n as total
      from (select count(*)::int as n from at_risk) counted
        left join page r on true
        left join subscriptions s on s.id = r.id
      order by r.next_billing_date, r.id`,
    values: [reason, q.limit, q.offset, q.storeCode, q.stockCoverDays],
  });
  const total = rows[0]?.total ?? 0;
  return { rows: rows.filter((r) => r.id !== null).map(({ total: _total, ...row }) => row), total };
}
