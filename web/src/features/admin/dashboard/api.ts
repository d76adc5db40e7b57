/** GET /api/admin/dashboard: the back office's first screen (every role). */
import type { Dashboard } from '@nh/shared/contracts/admin-dashboard';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

const fetchDashboard = async (): Promise<Dashboard> => (await (await apiRequest('GET', '/api/admin/dashboard')).json()) as Dashboard;

export const dashboardQuery = queryOptions({ queryKey: [...ADMIN_KEY, 'dashboard'], queryFn: fetchDashboard, staleTime: 30_000, refetchInterval: 60_000 });
