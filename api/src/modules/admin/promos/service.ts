/** Admin promo codes: list, create, toggle. Whether a code is usable is one rule, @nh/server's queries/promo.ts. */
import { desc, eq, not } from 'drizzle-orm';
import { tables, type Db } from '@nh/server';
import { ADMIN_MESSAGES, type AdminPromoCode } from '@nh/shared/contracts/admin';
import type { DiscountType } from '@nh/shared';
import { AppError } from '../../../lib/errors';
import { pgErrorCode, UNIQUE_VIOLATION } from '../db-errors';

const { promoCodes } = tables;
const columns = { id: promoCodes.id, code: promoCodes.code, discountType: promoCodes.discountType, discountValue: promoCodes.discountValue, isActive: promoCodes.isActive };
const toPromo = (row: { id: number; code: string; discountType: string; discountValue: number; isActive: boolean }): AdminPromoCode => ({
  ...row,
  discountType: row.discountType as DiscountType,
});

/** Every code, newest first (personal newsletter codes included: staff may need to switch one off). */
export async function listPromoCodes(db: Db): Promise<AdminPromoCode[]> {
  const rows = await db.select(columns).from(promoCodes).orderBy(desc(promoCodes.createdAt), desc(promoCodes.id));
  return rows.map(toPromo);
}

export async function createPromoCode(db: Db, input: { code: string; discountType: DiscountType; discountValue: number }): Promise<AdminPromoCode> {
  try {
    const [row] = await db.insert(promoCodes).values(input).returning(columns);
    return toPromo(row!);
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('PROMO_CODE_EXISTS', ADMIN_MESSAGES.promoExists);
    throw error;
  }
}

/** Flips isActive in one statement (two staff toggling at once each flip it once). */
export async function togglePromoCode(db: Db, id: number): Promise<AdminPromoCode> {
  const [row] = await db.update(promoCodes).set({ isActive: not(promoCodes.isActive) }).where(eq(promoCodes.id, id)).returning(columns);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.promoNotFound);
  return toPromo(row);
}
