/**
 * Keeps the reports' daily summary and the customers' figures close behind the writes: every
 * REPORT_CATCH_UP_MS, folds in what the order, payment and store credit triggers noted since, and
 * recounts those orders' customers (queries/report-summary.ts). Rows another worker
 * is folding are skipped, so several workers share a backlog. A report read catches up by itself first,
 * so this loop only keeps those reads short; a failed run is retried on the next tick.
 */
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { catchUpReportSummary } from '@nh/server/queries/report-summary';

export interface ReportCatchUp {
  /** Runs a catch-up now (after the one in progress) and answers the rows it took. */
  runNow: () => Promise<number>;
  /** Stops the ticks and waits for the run in progress. */
  stop: () => Promise<void>;
}

export function startReportCatchUp(deps: { db: Db; intervalMs: number; log: Logger }): ReportCatchUp {
  let running: Promise<number> | null = null;
  const catchUp = (): Promise<number> =>
    (running = catchUpReportSummary(deps.db.$client, { wait: false })
      .catch((err: unknown) => {
        deps.log.warn({ err }, 'reports summary: catch-up failed; will retry');
        return 0;
      })
      .finally(() => {
        running = null;
      }));
  // A tick while a run is in progress is skipped (a backlog takes longer than a tick).
  const timer = setInterval(() => void (running ?? catchUp()), deps.intervalMs);
  timer.unref();
  return {
    runNow: async () => {
      await running;
      return catchUp();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
