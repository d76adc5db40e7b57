/**
 * Stock cover (issue 23): days of stock per product at the next 30 days' need (renewals due, their one-time
 * add-ons, the current sales rate), and the products that will run short before a plan's next delivery.
 */
import { STORE_CODE } from '@nh/shared/constants';
import { STOCK_COVER_DAYS, type StockCoverProduct, type StockCoverReport } from '@nh/shared/contracts/admin-reports';
import { stockCover } from '@nh/server/queries/stock-cover';
import type { Db } from '@nh/server/db/client';

/** Stock / (need over `days` / `days`), one decimal; null when nothing is needed. */
export function daysOfCover(inStock: number, need: number, days = STOCK_COVER_DAYS): number | null {
  if (need <= 0) return null;
  return Math.round((inStock / (need / days)) * 10) / 10;
}

export async function stockCoverReport(db: Db): Promise<StockCoverReport> {
  const rows = await stockCover(db.$client, STORE_CODE, STOCK_COVER_DAYS);
  const products: StockCoverProduct[] = rows.map((r) => ({
    productId: r.product_id,
    name: r.name,
    inStock: r.in_stock,
    renewalUnits: r.renewal_units,
    addOnUnits: r.add_on_units,
    soldLast30Days: r.sold,
    daysOfCover: daysOfCover(r.in_stock, r.renewal_units + r.add_on_units + r.sold),
    runsShortOn: r.runs_short_on,
    plansShort: r.runs_short_on ? r.plans_short : 0,
  }));
  products.sort(
    (a, b) =>
      (a.runsShortOn ?? '9999').localeCompare(b.runsShortOn ?? '9999') ||
      (a.daysOfCover ?? Infinity) - (b.daysOfCover ?? Infinity) ||
      a.productId - b.productId,
  );
  return { generatedAt: new Date().toISOString(), products };
}
