/** GET /api/admin/dashboard: the back office's first screen (every role). */
import type { Dashboard } from '@nh/shared/contracts/admin-dashboard';
import { apiRequest } from '@/lib/query-client';

export const dashboardKeys = { dashboard: ['admin', 'dashboard'] as const };

export const fetchDashboard = async (): Promise<Dashboard> => (await (await apiRequest('GET', '/api/admin/dashboard')).json()) as Dashboard;
