/**
 * Catching the sales reports' daily summary up with the writes (migration report_summary_deferred): the
 * triggers of order, payment and store credit writes note in `report_pending` what the summary must take
 * in again, and `report_catch_up` folds the noted rows in, a batch per transaction. The worker calls it
 * on an interval (`wait: false`); every report read calls it first (`wait: true`), so a report counts
 * every write committed before it, as exactly as when the checkout's transaction recounted the summary
 * (docs/decisions/checkout.md, "The reports' summary, caught up after the checkout").
 */
import type pg from 'pg';

/** Noted rows folded in per transaction: a backlog (a seed, a bulk import) goes in slices this size. */
export const REPORT_CATCH_UP_BATCH = 5000;

/** Deadlocks a reader's catch-up retries: it locks orders then customers, and a rare writer locks the other way. */
const DEADLOCK_RETRIES = 3;

export interface CatchUpOptions {
  /**
   * true (a report read): wait for the rows another catch-up holds, so its work is committed before the
   * read. false (the worker): skip them; several workers share a backlog.
   */
  wait: boolean;
  batch?: number;
}

/** Folds every noted row into the summary, batch after batch; answers how many rows it took. */
export async function catchUpReportSummary(pool: pg.Pool, { wait, batch = REPORT_CATCH_UP_BATCH }: CatchUpOptions): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await catchUpBatch(pool, wait, batch);
    total += taken;
    if (taken < batch) return total;
  }
}

async function catchUpBatch(pool: pg.Pool, wait: boolean, batch: number, attempt = 1): Promise<number> {
  try {
    const { rows } = await pool.query<{ taken: number }>({ name: 'report_catch_up', text: 'select report_catch_up($1, $2) as taken', values: [batch, wait] });
    return rows[0]!.taken;
  } catch (error) {
    if ((error as { code?: string }).code === '40P01' && attempt < DEADLOCK_RETRIES) return catchUpBatch(pool, wait, batch, attempt + 1);
    throw error;
  }
}

/** Rows still to fold in (the worker's metric, and tests). */
export async function reportSummaryBacklog(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from report_pending');
  return rows[0]!.n;
}

/** A read of the summary: catches it up first (waiting for a catch-up in progress), so it counts every committed write. */
export async function readSummary<R extends pg.QueryResultRow>(pool: pg.Pool, query: pg.QueryConfig): Promise<R[]> {
  await catchUpReportSummary(pool, { wait: true });
  return (await pool.query<R>(query)).rows;
}
