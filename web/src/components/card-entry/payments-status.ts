/** GET /api/payments/status: whether payments can be taken, and the tokenising script's URL and public keys. */
import type { PaymentsStatus } from '@nh/shared/contracts/checkout';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/query-client';

export const paymentsStatusQuery = queryOptions({
  queryKey: ['/api/payments/status'],
  queryFn: getQueryFn<PaymentsStatus>({ on401: 'throw' }),
  staleTime: 60_000,
});

export const usePaymentsStatus = () => useQuery(paymentsStatusQuery);
