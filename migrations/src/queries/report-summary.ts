/**
 * Catching the sales reports' daily summary and the customers' figures up with the writes (migrations
 * report_summary_deferred, customer_figures_deferred): the triggers of order, payment and store credit
 * writes note in `report_pending` what must be counted again, and `report_catch_up` recounts the noted
 * orders' customers and folds the orders into the summary, a batch per transaction. The worker calls it
 * on an interval (`wait: false`); every report read and the staff's customer list and page call it first
 * (`wait: true`), so they count every write committed before them, as exactly as when the checkout's
 * transaction recounted them (docs/decisions/checkout.md, "The reports' summary, caught up after the
 * checkout", and "The customers' figures, caught up with the reports").
 */
import type pg from 'pg';

/** A pool, or a client outside any transaction (a catch-up commits its own batches). */
type Queryable = Pick<pg.Pool, 'query'>;

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
export async function catchUpReportSummary(pool: Queryable, { wait, batch = REPORT_CATCH_UP_BATCH }: CatchUpOptions): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await catchUpBatch(pool, wait, batch);
    total += taken;
    if (taken < batch) return total;
  }
}

async function catchUpBatch(pool: Queryable, wait: boolean, batch: number, attempt = 1): Promise<number> {
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
