/**
 * Subscribe & Save plans in the back office (GET /api/admin/subscriptions, /at-risk, /{id}; POST
 * /{id}/pause|resume|skip|reschedule|cancel). Every action answers the plan as the detail shows it.
 */
import type { CancelReason } from '@nh/shared/contracts/cancellation';
import type {
  AdminSubscriptionAction,
  AdminSubscriptionDetail,
  AdminSubscriptionsPage,
  AtRiskPage,
  AtRiskReason,
} from '@nh/shared/contracts/admin-subscriptions';
import type { SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';
import { pagedSearch } from '../ui/filter-params';

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

const listPlans = async (filters: PlanFilters) =>
  readJson<AdminSubscriptionsPage>(await apiRequest('GET', `/api/admin/subscriptions?${pagedSearch(PLAN_FILTER_KEYS, filters, PLANS_PAGE_SIZE)}`));

async function listAtRisk(reason: AtRiskReason | '', offset = 0, limit = PLANS_PAGE_SIZE): Promise<AtRiskPage> {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (reason) params.set('reason', reason);
  return readJson<AtRiskPage>(await apiRequest('GET', `/api/admin/subscriptions/at-risk?${params.toString()}`));
}

const getPlan = async (id: string) =>
  readJson<AdminSubscriptionDetail>(await apiRequest('GET', `/api/admin/subscriptions/${encodeURIComponent(id)}`));

/** What an action sends: reschedule the new day, pause, frequency and cancel a reason; the others nothing. */
export type PlanActionInput =
  | { action: 'resume' | 'skip' }
  | { action: 'pause'; reason: string }
  | { action: 'reschedule'; nextBillingDate: string }
  | { action: 'frequency'; intervalCount: number; reason: string }
  | { action: 'cancel'; reason: string; customerReason?: CancelReason };

export async function actOnPlan(id: string, input: PlanActionInput): Promise<AdminSubscriptionDetail> {
  const { action, ...body } = input;
  const url = `/api/admin/subscriptions/${encodeURIComponent(id)}/${action satisfies AdminSubscriptionAction}`;
  return readJson<AdminSubscriptionDetail>(await apiRequest('POST', url, body));
}

// ---------------------------------------------------------------- queries
const PLANS = [...ADMIN_KEY, 'plans'] as const;
const DETAILS = [...PLANS, 'detail'] as const;

export const planQueries = {
  /** Every plan query (what to read again after a plan changed). */
  all: PLANS,
  list: (filters: PlanFilters) => queryOptions({ queryKey: [...PLANS, 'list', filters], queryFn: () => listPlans(filters), staleTime: 0 }),
  atRisk: (reason: AtRiskReason | '', offset: number) =>
    queryOptions({ queryKey: [...PLANS, 'at-risk', reason, offset], queryFn: () => listAtRisk(reason, offset), staleTime: 0 }),
  /** How many plans are at risk (the dashboard's figure). */
  atRiskCount: queryOptions({ queryKey: [...PLANS, 'at-risk-count'], queryFn: () => listAtRisk('', 0, 1), staleTime: 30_000 }),
  /** Every plan's detail (the prefix of `detail`). */
  details: DETAILS,
  detail: (id: string) => queryOptions({ queryKey: [...DETAILS, id], queryFn: () => getPlan(id), staleTime: 0 }),
};
