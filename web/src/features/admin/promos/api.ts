/** Promo codes (POST /api/promo-codes/list, create, PATCH …/toggle). */
import type { AdminPromoCode, CreatePromoCodeInput } from '@nh/shared/contracts/admin';
import { queryOptions } from '@tanstack/react-query';
import { readJson } from '@/lib/query-client';
import { ADMIN_KEY, sendJson } from '../shell/api';

const listPromoCodes = async () => readJson<AdminPromoCode[]>(await sendJson('POST', '/api/promo-codes/list'));

export const createPromoCode = async (input: CreatePromoCodeInput) => readJson<AdminPromoCode>(await sendJson('POST', '/api/promo-codes', input));

export const togglePromoCode = async (id: number) => readJson<AdminPromoCode>(await sendJson('PATCH', `/api/promo-codes/${id}/toggle`));

export const promoQueries = {
  list: queryOptions({ queryKey: [...ADMIN_KEY, 'promo-codes'], queryFn: listPromoCodes }),
};
