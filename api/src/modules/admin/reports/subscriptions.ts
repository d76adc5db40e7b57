/**
 * The subscriptions report (issue 23): MRR now, its movement between the range's snapshot days (new,
 * expansion, contraction, churned, reactivated) and churn, from the daily snapshot the maintenance worker
 * keeps; the cancellations by reason and the save rate, from the cancellation report's data.
 */
import type { MrrMovement, ReportRange, SubscriptionsReport } from '@nh/shared/contracts/admin-reports';
import { mrrMovement, mrrNow, snapshotDays } from '@nh/server/queries/subscription-snapshots';
import type { Db } from '@nh/server/db/client';
import { cancellationReport } from './cancellations';

/** part / whole in percent to one decimal; null without a whole. */
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

async function movement(db: Db, start: string | null, end: string | null): Promise<MrrMovement | null> {
  if (!start || !end || start >= end) return null;
  const rows = await mrrMovement(db.$client, start, end);
  const of = (kind: string) => rows.find((r) => r.kind === kind) ?? { plans: 0, cents: 0, start_cents: 0 };
  const startMrr = rows.reduce((n, r) => n + r.start_cents, 0);
  const endMrr = startMrr + rows.reduce((n, r) => n + r.cents, 0);
  const churned = of('churned');
  const plansAtStart = rows.filter((r) => r.start_cents > 0).reduce((n, r) => n + r.plans, 0);
  return {
    startDay: start,
    endDay: end,
    startMrrCents: startMrr,
    endMrrCents: endMrr,
    newCents: of('new').cents,
    expansionCents: of('expansion').cents,
    contractionCents: -of('contraction').cents,
    churnedCents: -churned.cents,
    reactivatedCents: of('reactivated').cents,
    plans: { new: of('new').plans, expansion: of('expansion').plans, contraction: of('contraction').plans, churned: churned.plans, reactivated: of('reactivated').plans },
    plansAtStart,
    planChurnRatePercent: percent(churned.plans, plansAtStart),
    mrrChurnRatePercent: percent(-churned.cents, startMrr),
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
