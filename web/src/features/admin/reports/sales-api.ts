/** The range reports of the dashboard (issue 23; owners and managers): GET /api/admin/reports/{sales,top-products,customers,revenue-mix}?from&to. */
import type { CustomersReport, RevenueMixReport, SalesReport, StockCoverReport, SubscriptionsReport, TopProductsReport } from '@nh/shared/contracts/admin-reports';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

const report = <T>(name: string, from: string, to: string) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'reports', name, from, to],
    queryFn: async (): Promise<T> =>
      (await (await apiRequest('GET', `/api/admin/reports/${name}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).json()) as T,
  });

export const rangeReportQueries = {
  sales: (from: string, to: string) => report<SalesReport>('sales', from, to),
  topProducts: (from: string, to: string) => report<TopProductsReport>('top-products', from, to),
  customers: (from: string, to: string) => report<CustomersReport>('customers', from, to),
  revenueMix: (from: string, to: string) => report<RevenueMixReport>('revenue-mix', from, to),
  subscriptions: (from: string, to: string) => report<SubscriptionsReport>('subscriptions', from, to),
};

/** GET /api/admin/reports/stock-cover: the next 30 days, no range. */
export const stockCoverQuery = queryOptions({
  queryKey: [...ADMIN_KEY, 'reports', 'stock-cover'],
  queryFn: async (): Promise<StockCoverReport> => (await (await apiRequest('GET', '/api/admin/reports/stock-cover')).json()) as StockCoverReport,
});
