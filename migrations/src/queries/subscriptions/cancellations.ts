/**
 * Cancellation that listens (issue 22): the reason recorded with a cancellation, the save offers shown
 * and accepted, the discount's cool-down, and the staff's weekly report.
 */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../../db/client';
import { subscriptionCancelOffers, subscriptionCancellations } from '../../db/schema';

/** Written in the cancellation's own transaction (after changeLockedPlan decided it). */
export async function recordCancellation(tx: DbOrTx, subscriptionId: string, actor: 'customer' | 'staff', reason: string | null, comment: string | null): Promise<void> {
  await tx.insert(subscriptionCancellations).values({ subscriptionId, actor, reason, comment });
}

export async function recordOfferShown(tx: DbOrTx, subscriptionId: string, reason: string, kind: string): Promise<void> {
  await tx.insert(subscriptionCancelOffers).values({ subscriptionId, reason, kind });
}

/** The plan's latest discount offer shown in the last 12 months (the cool-down), if any. */
export async function latestDiscountOffer(tx: DbOrTx, subscriptionId: string): Promise<{ id: number; shownAt: Date; acceptedAt: Date | null; shownToday: boolean } | null> {
  const [row] = await tx
    .select({
      id: subscriptionCancelOffers.id,
      shownAt: subscriptionCancelOffers.shownAt,
      acceptedAt: subscriptionCancelOffers.acceptedAt,
      shownToday: sql<boolean>`${subscriptionCancelOffers.shownAt} > now() - interval '1 day'`,
    })
    .from(subscriptionCancelOffers)
    .where(and(eq(subscriptionCancelOffers.subscriptionId, subscriptionId), eq(subscriptionCancelOffers.kind, 'discount'), gt(subscriptionCancelOffers.shownAt, sql`now() - interval '12 months'`)))
    .orderBy(desc(subscriptionCancelOffers.shownAt))
    .limit(1);
  return row ?? null;
}

/**
 * Marks the plan's latest offer of `kind` shown in the last day and not yet accepted as accepted, in the
 * caller's transaction (the change the offer makes is written in it too): the reason it was shown for,
 * or null when there is none (an offer never shown, or taken already).
 */
export async function recordOfferAccepted(tx: DbOrTx, subscriptionId: string, kind: string): Promise<string | null> {
  const rows = await tx
    .update(subscriptionCancelOffers)
    .set({ acceptedAt: sql`now()` })
    .where(
      sql`${subscriptionCancelOffers.id} = (select id from subscription_cancel_offers
            where subscription_id = ${subscriptionId} and kind = ${kind} and accepted_at is null and shown_at > now() - interval '1 day'
            order by shown_at desc limit 1)`,
    )
    .returning({ reason: subscriptionCancelOffers.reason });
  return rows[0]?.reason ?? null;
}

export interface CancellationReportRow {
  week: string;
  reason: string | null;
  cancellations: number;
  offers_shown: number;
  offers_accepted: number;
  plans_saved: number;
  average_days_kept: number | null;
}

/**
 * By ISO week (Monday, UTC) from `from` to `to` (yyyy-mm-dd, both included): cancellations by reason
 * (a row per reason; `reason` null: none given), and on the week's row with reason '*' the offers shown
 * that week, those accepted, the plans saved (accepted and not cancelled since) and the average days they
 * stayed (acceptance to cancellation, or to now).
 */
export async function cancellationReport(pool: pg.Pool, from: string, to: string): Promise<CancellationReportRow[]> {
  const { rows } = await pool.query<CancellationReportRow>(
    `with bounds as (select $1::date::timestamptz as lo, ($2::date + 1)::timestamptz as hi),
     cancels as (
       select to_char(date_trunc('week', c.at at time zone 'UTC'), 'YYYY-MM-DD') as week, c.reason, count(*)::int as n
       from subscription_cancellations c, bounds where c.at >= bounds.lo and c.at < bounds.hi group by 1, 2),
     offers as (
       select to_char(date_trunc('week', o.shown_at at time zone 'UTC'), 'YYYY-MM-DD') as week,
              count(*)::int as shown,
              count(o.accepted_at)::int as accepted,
              count(*) filter (where o.accepted_at is not null and not exists (
                select 1 from subscription_cancellations c where c.subscription_id = o.subscription_id and c.at > o.accepted_at))::int as saved,
              avg(extract(epoch from coalesce(
                (select min(c.at) from subscription_cancellations c where c.subscription_id = o.subscription_id and c.at > o.accepted_at), now()) - o.accepted_at) / 86400)
                filter (where o.accepted_at is not null) as days
       from subscription_cancel_offers o, bounds where o.shown_at >= bounds.lo and o.shown_at < bounds.hi group by 1)
     select week, reason, n as cancellations, 0 as offers_shown, 0 as offers_accepted, 0 as plans_saved, null::float8 as average_days_kept from cancels
     union all
     select week, '*', 0, shown, accepted, saved, round(days::numeric, 1)::float8 from offers
     order by week`,
    [from, to],
  );
  return rows;
}
