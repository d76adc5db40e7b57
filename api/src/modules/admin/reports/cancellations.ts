/**
 * The cancellations report (issue 22): by week, cancellations by reason, save offers shown and accepted,
 * plans saved and how long they stayed. Words for staff: reasons and weeks, never enum values.
 */
import { CANCEL_REASONS, type CancelReason, type CancellationReport, type CancellationReportWeek } from '@nh/shared/contracts/cancellation';
import { formatUtcDay } from '@nh/shared/days';
import { cancellationReport as readReport } from '@nh/server/queries/subscriptions/cancellations';
import type { Db } from '@nh/server/db/client';

export const NO_REASON = 'No reason given';
const reasonWords = (reason: string | null) => (reason && reason in CANCEL_REASONS ? CANCEL_REASONS[reason as CancelReason] : NO_REASON);

export async function cancellationReport(db: Db, from: string, to: string): Promise<CancellationReport> {
  const rows = await readReport(db.$client, from, to);
  const weeks = new Map<string, CancellationReportWeek>();
  for (const row of rows) {
    let week = weeks.get(row.week);
    if (!week) {
      week = { weekStart: row.week, weekLabel: `Week of ${formatUtcDay(new Date(`${row.week}T00:00:00.000Z`))}`, cancellations: [], offersShown: 0, offersAccepted: 0, plansSaved: 0, averageDaysKept: null };
      weeks.set(row.week, week);
    }
    if (row.reason === '*') {
      Object.assign(week, { offersShown: row.offers_shown, offersAccepted: row.offers_accepted, plansSaved: row.plans_saved, averageDaysKept: row.average_days_kept });
    } else {
      const words = reasonWords(row.reason);
      const same = week.cancellations.find((c) => c.reason === words);
      if (same) same.count += row.cancellations;
      else week.cancellations.push({ reason: words, count: row.cancellations });
    }
  }
  return { from, to, weeks: [...weeks.values()] };
}
