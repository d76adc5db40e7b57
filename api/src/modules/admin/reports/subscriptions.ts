/**
 * The subscriptions report (issue 23): MRR now, its movement over the range's snapshot days (new,
 * expansion, contraction, churned, reactivated: the sum of each day's movement, stored with the daily
 * snapshot the maintenance worker keeps) and churn; the cancellations by reason and the save rate, from the cancellation report's data.
 */
import type { MrrMovement, ReportRange, SubscriptionsReport } from '@nh/shared/contracts/admin-reports';
import { mrrMovement, mrrNow, snapshotDays } from '@nh/server/queries/subscription-snapshots';
import type { Db } from '@nh/server/db/client';
import { cancellationReport } from './cancellations';

/** part / whole in percent to one decimal; null without a whole. */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

async function movement(db: Db, start: string | null, end: string | null): Promise<MrrMovement | null> {
  if (!start || !end || start >= end) return null;
  const m = await mrrMovement(db.$client, start, end);
  const k = m.kinds;
  return {
    startDay: start,
    endDay: end,
    startMrrCents: m.start.cents,
    endMrrCents: m.end.cents,
    newCents: k.new.cents,
    expansionCents: k.expansion.cents,
    contractionCents: -k.contraction.cents,
    churnedCents: -k.churned.cents,
    reactivatedCents: k.reactivated.cents,
    plans: { new: k.new.plans, expansion: k.expansion.plans, contraction: k.contraction.plans, churned: k.churned.plans, reactivated: k.reactivated.plans },
    plansAtStart: m.start.plans,
    planChurnRatePercent: percent(k.churned.plans, m.start.plans),
    mrrChurnRatePercent: percent(-k.churned.cents, m.start.cents),
  };
}

export async function subscriptionsReport(db: Db, { from, to }: ReportRange): Promise<SubscriptionsReport> {
  const [now, days, cancellations] = await Promise.all([mrrNow(db.$client), snapshotDays(db.$client, from, to), cancellationReport(db, from, to)]);
  const byReason = new Map<string, number>();
  let offersShown = 0;
  let offersAccepted = 0;
  let plansSaved = 0;
  for (const week of cancellations.weeks) {
    for (const c of week.cancellations) byReason.set(c.reason, (byReason.get(c.reason) ?? 0) + c.count);
    offersShown += week.offersShown;
    offersAccepted += week.offersAccepted;
    plansSaved += week.plansSaved;
  }
  const total = [...byReason.values()].reduce((n, c) => n + c, 0);
  return {
    from,
    to,
    mrrNowCents: now.mrrCents,
    activePlansNow: now.activePlans,
    snapshotsFrom: days.first,
    movement: await movement(db, days.start, days.end),
    cancellations: {
      total,
      byReason: [...byReason].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
      offersShown,
      offersAccepted,
      plansSaved,
      saveRatePercent: percent(plansSaved, plansSaved + total),
    },
  };
}
