/**
 * The sales reports (issue 23): sales, orders, average order, units, refunds and net revenue; top products;
 * new vs returning customers; subscription vs one-time revenue. Each answers the range and the previous
 * period of the same length beside it, money in integer cents.
 */
import { STORE_CODE } from '@nh/shared/constants';
import {
  previousRange,
  type CustomerFigures,
  type CustomersReport,
  type ReportPeriods,
  type ReportRange,
  type RevenueMixFigures,
  type RevenueMixReport,
  type SalesFigures,
  type SalesReport,
  type TopProductsReport,
} from '@nh/shared/contracts/admin-reports';
import { customerFigures, revenueMix, salesFigures, topProducts, type Periods } from '@nh/server/queries/sales-reports';
import type { Db } from '@nh/server/db/client';

function periods(range: ReportRange): { periods: ReportPeriods; query: Periods } {
  const previous = previousRange(range);
  return {
    periods: { from: range.from, to: range.to, previousFrom: previous.from, previousTo: previous.to },
    query: { storeCode: STORE_CODE, previousFrom: previous.from, from: range.from, to: range.to },
  };
}

/** Net revenue per order, rounded half up to the cent. */
export const averageOrder = (netCents: number, orders: number) => (orders ? Math.round(netCents / orders) : 0);

export async function salesReport(db: Db, range: ReportRange): Promise<SalesReport> {
  const { periods: p, query } = periods(range);
  const rows = await salesFigures(db.$client, query);
  const figures = (cur: boolean): SalesFigures => {
    const r = rows.find((row) => row.cur === cur);
    const sales = r?.sales ?? 0;
    const refunds = r?.refunds ?? 0;
    const orders = r?.orders ?? 0;
    return { salesCents: sales, orders, averageOrderCents: averageOrder(sales - refunds, orders), units: r?.units ?? 0, refundsCents: refunds, netRevenueCents: sales - refunds };
  };
  return { ...p, current: figures(true), previous: figures(false) };
}

export async function topProductsReport(db: Db, range: ReportRange, limit: number): Promise<TopProductsReport> {
  const { periods: p, query } = periods(range);
  const rows = await topProducts(db.$client, query, limit);
  return {
    ...p,
    products: rows.map((r) => ({ productId: r.product_id, name: r.name, units: r.units, salesCents: r.sales, previousUnits: r.previous_units, previousSalesCents: r.previous_sales })),
  };
}

export async function customersReport(db: Db, range: ReportRange): Promise<CustomersReport> {
  const { periods: p, query } = periods(range);
  const rows = await customerFigures(db.$client, query);
  const figures = (cur: boolean): CustomerFigures => {
    const of = (isNew: boolean) => rows.find((r) => r.cur === cur && r.is_new === isNew);
    const fresh = of(true);
    const back = of(false);
    return {
      newCustomers: fresh?.customers ?? 0,
      returningCustomers: back?.customers ?? 0,
      newOrders: fresh?.orders ?? 0,
      returningOrders: back?.orders ?? 0,
      newRevenueCents: fresh?.revenue ?? 0,
      returningRevenueCents: back?.revenue ?? 0,
    };
  };
  return { ...p, current: figures(true), previous: figures(false) };
}

export async function revenueMixReport(db: Db, range: ReportRange): Promise<RevenueMixReport> {
  const { periods: p, query } = periods(range);
  const rows = await revenueMix(db.$client, query);
  const figures = (cur: boolean): RevenueMixFigures => {
    const of = (subscription: boolean) => rows.find((r) => r.cur === cur && r.subscription === subscription);
    return {
      subscriptionOrders: of(true)?.orders ?? 0,
      subscriptionRevenueCents: of(true)?.revenue ?? 0,
      oneTimeOrders: of(false)?.orders ?? 0,
      oneTimeRevenueCents: of(false)?.revenue ?? 0,
    };
  };
  return { ...p, current: figures(true), previous: figures(false) };
}
