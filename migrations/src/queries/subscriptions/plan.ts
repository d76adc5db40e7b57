/**
 * A plan as every use reads it (the shopper's page, the back office, the renewals, the emails): the
 * database's clock, the one rule of a plan's card, the items its next delivery could not have, a stored
 * card expiring before the next billing date, and the plan row itself. The uses are beside this file:
 * shopper.ts (My Subscriptions), changes.ts (a change by staff or the shopper), staff.ts (the back
 * office), renewals.ts (the sweep and the renewal job), card-expiry.ts (the stored card's expiry).
 */
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import type { UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';
import type { DbOrTx } from '../../db/client';
import { subscriptions, type SubscriptionRow } from '../../db/schema';

/** A pool, or one of its connections (inside the caller's transaction). */
export type Queryable = pg.Pool | pg.PoolClient;

export const DAY_MS = 86_400_000;

// ---- The clock (SQL, so the database's clock decides) ----

/** Today (yyyy-MM-dd, UTC) by the database's clock: the day every plan rule and screen reads. */
export const TODAY_SQL = `to_char(now() at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * A billing date is a day: a subscription is due on its billing day (UTC), whatever the time of day it
 * was created, so the 06:00 sweep charges on the date the customer was shown and not a day late. SQL,
 * because the database's clock decides (the sweep and the job agree whichever host runs them).
 */
export const DUE_BEFORE_SQL = `(date_trunc('day', now(), 'UTC') + interval '1 day')`;

// ---- What every use shows of a plan ----

/**
 * A plan's card, the one rule My Subscriptions, the back office and the emails follow: the card stored
 * on the plan (the one the shopper last gave on My Subscriptions: subscriptions.card_type,
 * card_last_four, migration 0015), else the card of its latest approved payment (a plan still on the
 * card it was bought with). Columns over `s` and its lateral join `card`.
 */
export const PLAN_CARD_COLUMNS = `case when s.card_last_four is not null then s.card_type else card.card_type end as card_type, coalesce(s.card_last_four, card.card_last_four) as card_last_four`;
export const PLAN_CARD_JOIN = `left join lateral (
    select p.card_type, p.card_last_four from payment_transactions p
    where p.subscription_id = s.id and p.status = 'approved' order by p.created_at desc limit 1) card on true`;

/** What a person is shown of a plan's card: brand and last four (both null while none is known). */
export interface PlanCardBrand {
  cardType: string | null;
  cardLastFour: string | null;
}

/** The plan's card by the rule above, as staff and emails name it (both null for an unknown plan). */
export async function findPlanCardBrand(db: Queryable, subscriptionId: string): Promise<PlanCardBrand> {
  const { rows } = await db.query<{ card_type: string | null; card_last_four: string | null }>({
    name: 'subscriptions_plan_card_brand',
    text: `select ${PLAN_CARD_COLUMNS} from subscriptions s ${PLAN_CARD_JOIN} where s.id = $1`,
    values: [subscriptionId],
  });
  return { cardType: rows[0]?.card_type ?? null, cardLastFour: rows[0]?.card_last_four ?? null };
}

/**
 * The items of plan `s` its next delivery could not have (the renewal's stock rule: the product exists,
 * is active and has the quantity, quantities of one product added up; its one-time add-ons count too), as a JSON array in
 * `unavailable.items`, null when every item can be delivered. A lateral join to put after `subscriptions s`.
 */
export const UNAVAILABLE_JOIN = `left join lateral (
    select json_agg(json_build_object('productId', w.product_id, 'productName', coalesce(p.name, w.name),
        'problem', case when p.id is null then 'removed' when p.status = 'inactive' then 'inactive' else 'out-of-stock' end,
        'wanted', w.qty, 'available', coalesce(p.inventory, 0)) order by w.product_id) as items
    from (select (i->>'productId')::int as product_id, min(i->>'productName') as name, sum((i->>'quantity')::int)::int as qty
          from jsonb_array_elements(s.items || s.one_time_items) i group by 1) w
    left join products p on p.id = w.product_id
    where p.id is null or p.status <> 'active' or p.inventory < w.qty) unavailable on true`;

/** The items of one plan its next delivery could not have now (empty when all can be delivered). */
export async function unavailableItemsOf(db: Queryable, subscriptionId: string): Promise<UnavailableItem[]> {
  const { rows } = await db.query<{ items: UnavailableItem[] | null }>(`select unavailable.items from subscriptions s ${UNAVAILABLE_JOIN} where s.id = $1`, [subscriptionId]);
  return rows[0]?.items ?? [];
}

/**
 * The stored card of plan `s` expires before its next billing date: the card is good through
 * card_expires_on (the last day of its month), the billing date is a UTC day. False while not known.
 */
export const CARD_EXPIRING_SQL = `coalesce(s.card_expires_on < (s.next_billing_date at time zone 'UTC')::date, false)`;

/** The plan's row (null: no such plan). */
export async function findPlan(db: DbOrTx, id: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row ?? null;
}
