/**
 * Staff on the customer's behalf (issue 21): PUT /api/admin/subscriptions/{id}/items and /address, POST
 * /{id}/card-link, each with a reason; each answers the plan as the detail shows it, shown as the other
 * plan actions' answers are (usePlanChange).
 */
import type { AdminSubscriptionDetail, ChangeAddressByStaffRequest, ChangeItemsByStaffRequest, SendCardLinkRequest } from '@nh/shared/contracts/admin-subscriptions';
import { apiRequest, readJson } from '@/lib/query-client';
import { usePlanChange } from './plan-change';

export type OnBehalfChange =
  | { action: 'items'; body: ChangeItemsByStaffRequest }
  | { action: 'address'; body: ChangeAddressByStaffRequest }
  | { action: 'card-link'; body: SendCardLinkRequest };

export async function changeForCustomer(id: string, change: OnBehalfChange): Promise<AdminSubscriptionDetail> {
  const method = change.action === 'card-link' ? 'POST' : 'PUT';
  return readJson<AdminSubscriptionDetail>(await apiRequest(method, `/api/admin/subscriptions/${encodeURIComponent(id)}/${change.action}`, change.body));
}

/** One change for the customer (see usePlanChange): a refusal is the caller's to show. */
export const useChangeForCustomer = (planId: string, done: string) => usePlanChange(planId, (change: OnBehalfChange) => changeForCustomer(planId, change), done);
