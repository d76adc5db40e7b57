/**
 * Store credit in the back office (issue 23): a customer's balance and ledger, and giving credit
 * (POST /api/admin/customers/{id}/credit with an Idempotency-Key). The customer id of an account is its
 * users.id (an order's `userId`).
 */
import type { GrantCreditInput, GrantCreditResponse, StaffStoreCreditEntryView } from '@nh/shared/contracts/store-credit';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

const creditUrl = (customerId: string) => `/api/admin/customers/${encodeURIComponent(customerId)}/credit`;

export interface StaffCreditView {
  balance: string;
  entries: StaffStoreCreditEntryView[];
}

export const creditQuery = (customerId: string) =>
  queryOptions({ queryKey: [...ADMIN_KEY, 'customer-credit', customerId], queryFn: async () => readJson<StaffCreditView>(await apiRequest('GET', creditUrl(customerId))) });

export const grantCredit = async (customerId: string, body: GrantCreditInput, idempotencyKey: string) =>
  readJson<GrantCreditResponse>(await apiRequest('POST', creditUrl(customerId), body, { 'Idempotency-Key': idempotencyKey }));
