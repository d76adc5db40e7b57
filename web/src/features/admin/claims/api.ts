/**
 * Damage claims in the back office (issue 23): a claim on an order (POST /api/admin/orders/{id}/claims
 * with an Idempotency-Key), the queue (GET /api/admin/claims), approve and decline, and the claim figures
 * (GET /api/admin/reports/claims).
 */
import type { AdminClaim, ClaimRates, ClaimReason, ClaimResolution, ClaimSettings, ClaimStatus } from '@nh/shared/contracts/claims';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY } from '../shell/api';

export interface ClaimBody {
  lines: Array<{ line: number; quantity: number }>;
  reason: ClaimReason;
  resolution: ClaimResolution;
  note: string;
  /** What the photo upload answered (POST /api/admin/orders/{id}/claims/photos). */
  photo?: string;
}

/** A claim's photo for staff (the API streams it from the private store; the staff cookie is sent). */
export const claimPhotoUrl = (claimId: string) => `/api/admin/claims/${encodeURIComponent(claimId)}/photo`;

export const CLAIMS_KEY = [...ADMIN_KEY, 'claims'] as const;

export const makeClaim = async (orderId: string, body: ClaimBody, idempotencyKey: string) =>
  readJson<AdminClaim>(await apiRequest('POST', `/api/admin/orders/${encodeURIComponent(orderId)}/claims`, body, { 'Idempotency-Key': idempotencyKey }));

export const claimsQuery = (status: ClaimStatus | 'all') =>
  queryOptions({
    queryKey: [...CLAIMS_KEY, status],
    queryFn: async () => readJson<AdminClaim[]>(await apiRequest('GET', status === 'all' ? '/api/admin/claims' : `/api/admin/claims?status=${status}`)),
  });

export const approveClaim = async (id: string, resolution: ClaimResolution, note: string) =>
  readJson<AdminClaim>(await apiRequest('POST', `/api/admin/claims/${encodeURIComponent(id)}/approve`, { resolution, note }));

export const declineClaim = async (id: string, note: string) => readJson<AdminClaim>(await apiRequest('POST', `/api/admin/claims/${encodeURIComponent(id)}/decline`, { note }));

export const claimRatesQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'claim-rates', from, to],
    queryFn: async () => readJson<ClaimRates>(await apiRequest('GET', `/api/admin/reports/claims?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)),
  });

export const claimSettingsQuery = () =>
  queryOptions({ queryKey: [...CLAIMS_KEY, 'settings'], queryFn: async () => readJson<ClaimSettings>(await apiRequest('GET', '/api/admin/claims/settings')) });

export const saveClaimSettings = async (body: ClaimSettings) => readJson<ClaimSettings>(await apiRequest('PUT', '/api/admin/claims/settings', body));
