/**
 * A plan's own history beyond its payments (issue 21): the changes its shopper made (and the plan made by
 * itself: a timed pause ending), who paused a paused plan, and the cadence suggestions shown to its
 * shopper. Staff changes stay in audit_events (audit.ts); this file reads both where a screen needs both.
 */
import { and, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { CadencePeriod } from '@nh/shared/subscriptions/cadence-suggestion';
import type { Db, DbOrTx } from '../../db/client';
import { subscriptionCadenceSuggestions, subscriptionChanges } from '../../db/schema';
import type { Queryable } from './plan';

/** Who made a change that is not staff's: the shopper on My Subscriptions, or the plan itself (a timed pause ending). */
export type PlanChangeActor = 'customer' | 'plan';

export interface PlanChangeRecord {
  kind: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** How the customer made it when not on My Subscriptions: `email-link` (a one-click action from an email). */
  via?: 'email-link' | null;
}

/** Records a change by the shopper (or the plan itself) in the change's transaction. */
export async function recordPlanChange(tx: DbOrTx, subscriptionId: string, actor: PlanChangeActor, change: PlanChangeRecord): Promise<void> {
  await tx.insert(subscriptionChanges).values({ subscriptionId, actor, kind: change.kind, before: change.before ?? null, after: change.after ?? null, via: change.via ?? null });
}

export interface PlanChangeEntry {
  id: number;
  at: Date;
  actor: PlanChangeActor;
  kind: string;
  before: unknown;
  after: unknown;
  via: 'email-link' | null;
}

/** The shopper's own changes to a plan (and the plan's), newest first, at most `limit`. */
export async function listPlanChanges(db: Db, subscriptionId: string, limit = 50): Promise<PlanChangeEntry[]> {
  const rows = await db
    .select()
    .from(subscriptionChanges)
    .where(eq(subscriptionChanges.subscriptionId, subscriptionId))
    .orderBy(desc(subscriptionChanges.at), desc(subscriptionChanges.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, at: r.at, actor: r.actor as PlanChangeActor, kind: r.kind, before: r.before, after: r.after, via: (r.via as 'email-link' | null) ?? null }));
}

// ---- Who paused a plan ----

/**
 * Over `s`: the latest pause of the plan, by staff (audit_events, with the reason they gave) or by its
 * shopper (subscription_changes): columns `paused_by` ('staff' | 'customer' | null) and `pause_reason`.
 * A plan whose renewals failed is paused by the renewals (failed_attempts > 0): the caller reads that first.
 */
export const LAST_PAUSE_COLUMNS = `last_pause.by as paused_by, last_pause.reason as pause_reason`;
export const LAST_PAUSE_JOIN = `left join lateral (
    select x.by, x.reason from (
      select 'staff' as by, a.after->>'reason' as reason, a.at from audit_events a
        where a.entity_type = 'subscription' and a.entity_id = s.id::text and a.action = 'subscription.paused'
      union all
      select 'customer', null, c.at from subscription_changes c where c.subscription_id = s.id and c.kind = 'paused'
    ) x order by x.at desc limit 1) last_pause on true`;

// ---- The history a cadence suggestion reads ----

/**
 * Over `s`: the plan's latest periods as the cadence rule reads them (`cadence_periods`, a JSON array of
 * {day, kind}): each charged delivery (an approved renewal charge; `shipped-early` when it was a ship-now,
 * subscription_ship_nows, whose period is the day it shipped) and each delivery its shopper skipped
 * (subscription_skipped_periods, reason shopper-skip), the 6 latest; and `cadence_dismissed_period`, the
 * period its shopper last declined a suggestion in; `cadence_changed_on`, the day its cadence last changed.
 */
export const CADENCE_HISTORY_COLUMNS = `cadence.periods as cadence_periods,
  (select max(d.billing_period) from subscription_cadence_suggestions d where d.subscription_id = s.id and d.dismissed_at is not null) as cadence_dismissed_period,
  to_char(greatest(
    (select max(c.at) from subscription_changes c where c.subscription_id = s.id and c.kind = 'frequency'),
    (select max(a.at) from audit_events a where a.entity_type = 'subscription' and a.entity_id = s.id::text and a.action = 'subscription.frequency_changed')
  ) at time zone 'UTC', 'YYYY-MM-DD') as cadence_changed_on`;
export const CADENCE_HISTORY_JOIN = `cross join lateral (
    select coalesce(json_agg(json_build_object('day', h.day, 'kind', h.kind) order by h.day), '[]') as periods from (
      select e.day, e.kind from (
        select p.billing_period as day,
            case when exists (select 1 from subscription_ship_nows n where n.subscription_id = s.id and n.billing_period = p.billing_period)
              then 'shipped-early' else 'delivered' end as kind
          from payment_transactions p
          where p.subscription_id = s.id and p.kind = 'charge' and p.status = 'approved'
        union all
        select k.billing_period, 'skipped' from subscription_skipped_periods k where k.subscription_id = s.id and k.reason = 'shopper-skip'
      ) e order by e.day desc limit 6) h) cadence`;

export interface CadenceHistoryRow {
  cadence_periods: CadencePeriod[];
  cadence_dismissed_period: string | null;
  /** yyyy-MM-dd the cadence last changed (the shopper's or staff's change), or null. */
  cadence_changed_on: string | null;
}

/** One plan's cadence history (the renewal reminder reads it); null for an unknown plan. */
export async function findCadenceHistory(db: Queryable, subscriptionId: string): Promise<(CadenceHistoryRow & { interval_count: number; next_billing_date: Date }) | null> {
  const { rows } = await db.query<CadenceHistoryRow & { interval_count: number; next_billing_date: Date }>({
    name: 'subscriptions_cadence_history',
    text: `select s.interval_count, s.next_billing_date, ${CADENCE_HISTORY_COLUMNS} from subscriptions s ${CADENCE_HISTORY_JOIN} where s.id = $1`,
    values: [subscriptionId],
  });
  return rows[0] ?? null;
}

// ---- Suggestions shown, accepted, declined ----

/** Records a suggestion as shown for the plan's period; once per plan and period (a later showing changes nothing). */
export async function recordSuggestionShown(db: DbOrTx, subscriptionId: string, period: string, intervalCount: number): Promise<void> {
  await db.insert(subscriptionCadenceSuggestions).values({ subscriptionId, billingPeriod: period, intervalCount }).onConflictDoNothing();
}

/** The shopper declined the suggestion of `period`: hidden for three periods from it (the row is written if it was not shown yet). */
export async function recordSuggestionDismissed(db: DbOrTx, subscriptionId: string, period: string, intervalCount: number): Promise<void> {
  await db
    .insert(subscriptionCadenceSuggestions)
    .values({ subscriptionId, billingPeriod: period, intervalCount, dismissedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [subscriptionCadenceSuggestions.subscriptionId, subscriptionCadenceSuggestions.billingPeriod],
      set: { dismissedAt: sql`coalesce(${subscriptionCadenceSuggestions.dismissedAt}, now())` },
    });
}

/**
 * A change to `intervalCount` months follows a suggestion: the plan's latest suggestion shown for that
 * cadence, neither accepted nor declined, is accepted (in the change's transaction). Answers whether one was.
 */
export async function recordSuggestionAccepted(tx: DbOrTx, subscriptionId: string, intervalCount: number): Promise<boolean> {
  const rows = await tx
    .update(subscriptionCadenceSuggestions)
    .set({ acceptedAt: sql`now()` })
    .where(
      sql`(${subscriptionCadenceSuggestions.subscriptionId}, ${subscriptionCadenceSuggestions.billingPeriod}) = (
        select subscription_id, billing_period from subscription_cadence_suggestions
        where subscription_id = ${subscriptionId} and accepted_at is null and dismissed_at is null and interval_count = ${intervalCount}
        order by billing_period desc limit 1)`,
    )
    .returning({ period: subscriptionCadenceSuggestions.billingPeriod });
  return rows.length > 0;
}

/** The dashboard's counts: suggestions shown, accepted and declined since `from`. */
export async function cadenceSuggestionCounts(db: Db, from: Date): Promise<{ shown: number; accepted: number; dismissed: number }> {
  const t = subscriptionCadenceSuggestions;
  const [row] = await db
    .select({
      shown: sql<number>`count(*)::int`,
      accepted: sql<number>`(count(*) filter (where ${isNotNull(t.acceptedAt)}))::int`,
      dismissed: sql<number>`(count(*) filter (where ${isNotNull(t.dismissedAt)}))::int`,
    })
    .from(t)
    .where(and(gte(t.shownAt, from)));
  return { shown: row?.shown ?? 0, accepted: row?.accepted ?? 0, dismissed: row?.dismissed ?? 0 };
}

// ---- Timed pauses ----

/** Plans paused for a number of deliveries whose day to resume (resumes_on) is today or before (UTC, the database's clock). */
export async function findTimedPausesEnding(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>({
    name: 'subscriptions_timed_pauses_ending',
    text: `select id from subscriptions where status = 'paused' and resumes_on is not null and resumes_on <= (now() at time zone 'UTC')::date order by resumes_on, id`,
  });
  return rows.map((r) => r.id);
}

/** Who paused the plan last (staff with their reason, or its shopper); null when no pause is recorded. */
export async function findLastPause(db: Queryable, subscriptionId: string): Promise<{ by: 'staff' | 'customer'; reason: string | null } | null> {
  const { rows } = await db.query<{ paused_by: 'staff' | 'customer' | null; pause_reason: string | null }>({
    name: 'subscriptions_last_pause',
    text: `select ${LAST_PAUSE_COLUMNS} from subscriptions s ${LAST_PAUSE_JOIN} where s.id = $1`,
    values: [subscriptionId],
  });
  const row = rows[0];
  return row?.paused_by ? { by: row.paused_by, reason: row.pause_reason } : null;
}
