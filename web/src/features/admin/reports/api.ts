/** GET /api/admin/reports/cancellations?from&to (owners and managers): the cancellations report by week (issue 22). */
import type { CancellationReport } from '@nh/shared/contracts/cancellation';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

export const cancellationReportQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'reports', 'cancellations', from, to],
    queryFn: async (): Promise<CancellationReport> =>
      (await (await apiRequest('GET', `/api/admin/reports/cancellations?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).json()) as CancellationReport,
  });
