/**
 * GET /api/subscriptions/cadences: the months between deliveries a plan may have (PLAN_CADENCE_MONTHS).
 * Until it answers (or if it fails) the shop's default list is offered; the server checks the choice.
 */
import { DEFAULT_PLAN_CADENCE_MONTHS, type PlanCadences } from '@nh/shared/contracts/subscriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/query-client';

export const planCadencesQuery = queryOptions({
  queryKey: ['/api/subscriptions/cadences'],
  queryFn: getQueryFn<PlanCadences>({ on401: 'throw' }),
  staleTime: 5 * 60_000,
});

/** The cadences offered, in months, sorted. */
export function usePlanCadences(): readonly number[] {
  const { data } = useQuery(planCadencesQuery);
  return data?.months?.length ? data.months : DEFAULT_PLAN_CADENCE_MONTHS;
}
