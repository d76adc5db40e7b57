/**
 * Subscribe & Save plans in the back office (GET /api/admin/subscriptions, /at-risk, /{id}; POST
 * /{id}/pause|resume|skip|reschedule|cancel). Every action answers the plan as the detail shows it.
 */
import type {
  AdminSubscriptionAction,
  AdminSubscriptionDetail,
  AdminSubscriptionsPage,
  AtRiskPage,
  AtRiskReason,
} from '@nh/shared/contracts/admin-subscriptions';
import type { SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import { apiRequest, readJson } from '@/lib/query-client';

export const PLANS_PAGE_SIZE = 50;

/** The plan table's filters as the URL and the API spell them (empty means "any"). */
export interface PlanFilters {
  search: string;
  status: SubscriptionStatus | '';
  dueFrom: string;
  dueTo: string;
  /** '' (any) or a whole number: plans with at least that many failed renewals. */
  minFailedAttempts: string;
  offset: number;
}

export const EMPTY_PLAN_FILTERS: PlanFilters = { search: '', status: '', dueFrom: '', dueTo: '', minFailedAttempts: '', offset: 0 };
export const PLAN_FILTER_KEYS = ['search', 'status', 'dueFrom', 'dueTo', 'minFailedAttempts'] as const;

export const planKeys = {
  all: ['admin', 'plans'] as const,
  list: (filters: PlanFilters) => ['admin', 'plans', 'list', filters] as const,
  atRisk: (reason: AtRiskReason | '', offset: number) => ['admin', 'plans', 'at-risk', reason, offset] as const,
  atRiskCount: ['admin', 'plans', 'at-risk-count'] as const,
  detail: (id: string) => ['admin', 'plans', 'detail', id] as const,
};

/** The query string of the filters (empty ones left out), with the page. */
export function planSearch(filters: PlanFilters): string {
  const params = new URLSearchParams();
  for (const key of PLAN_FILTER_KEYS) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
  }
  params.set('limit', String(PLANS_PAGE_SIZE));
  params.set('offset', String(filters.offset));
  return params.toString();
}

export const listPlans = async (filters: PlanFilters) =>
  readJson<AdminSubscriptionsPage>(await apiRequest('GET', `/api/admin/subscriptions?${planSearch(filters)}`));

export async function listAtRisk(reason: AtRiskReason | '', offset = 0, limit = PLANS_PAGE_SIZE): Promise<AtRiskPage> {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (reason) params.set('reason', reason);
  return readJson<AtRiskPage>(await apiRequest('GET', `/api/admin/subscriptions/at-risk?${params.toString()}`));
}

export const getPlan = async (id: string) =>
  readJson<AdminSubscriptionDetail>(await apiRequest('GET', `/api/admin/subscriptions/${encodeURIComponent(id)}`));

/** What an action sends: reschedule the new day, cancel the reason; the others nothing. */
export type PlanActionInput =
  { action: 'pause' | 'resume' | 'skip' } | { action: 'reschedule'; nextBillingDate: string } | { action: 'cancel'; reason: string };

export async function actOnPlan(id: string, input: PlanActionInput): Promise<AdminSubscriptionDetail> {
  const { action, ...body } = input;
  const url = `/api/admin/subscriptions/${encodeURIComponent(id)}/${action satisfies AdminSubscriptionAction}`;
  return readJson<AdminSubscriptionDetail>(await apiRequest('POST', url, body));
}
