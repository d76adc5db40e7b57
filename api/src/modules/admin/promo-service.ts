/** Admin promo codes: list, create, toggle. Checkout validation lives in the promo module. */
import { desc, eq, not } from 'drizzle-orm';
import { tables } from '@nh/server';
import { ADMIN_MESSAGES, type AdminPromoCode } from '@nh/shared/contracts/admin';
import type { DiscountType } from '@nh/shared';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../lib/errors';
import { pgErrorCode, UNIQUE_VIOLATION } from './db-errors';

const { promoCodes } = tables;
const columns = { id: promoCodes.id, code: promoCodes.code, discountType: promoCodes.discountType, discountValue: promoCodes.discountValue, isActive: promoCodes.isActive };
const toPromo = (row: { id: number; code: string; discountType: string; discountValue: number; isActive: boolean }): AdminPromoCode => ({
  ...row,
  discountType: row.discountType as DiscountType,
});

/** Every code, newest first (personal newsletter codes included: staff may need to switch one off). */
export async function listPromoCodes(ctx: AppContext): Promise<AdminPromoCode[]> {
  const rows = await ctx.db.select(columns).from(promoCodes).orderBy(desc(promoCodes.createdAt), desc(promoCodes.id));
  return rows.map(toPromo);
}

export async function createPromoCode(ctx: AppContext, input: { code: string; discountType: DiscountType; discountValue: number }): Promise<AdminPromoCode> {
  try {
    const [row] = await ctx.db.insert(promoCodes).values(input).returning(columns);
    return toPromo(row!);
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw conflict(ADMIN_MESSAGES.promoExists);
    throw error;
  }
}

/** Flips isActive in one statement (two staff toggling at once each flip it once). */
export async function togglePromoCode(ctx: AppContext, id: number): Promise<AdminPromoCode> {
  const [row] = await ctx.db.update(promoCodes).set({ isActive: not(promoCodes.isActive) }).where(eq(promoCodes.id, id)).returning(columns);
  if (!row) throw notFound(ADMIN_MESSAGES.promoNotFound);
  return toPromo(row);
}
