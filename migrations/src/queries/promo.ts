/**
 * Promo codes. "Is this promo code usable": the one rule, for the checkout's Apply button
 * (GET /api/promo-codes/validate/{code}) and for pricing an order at checkout alike. And the back
 * office's list, creation and switching on and off.
 */
import { desc, eq, not } from 'drizzle-orm';
import type pg from 'pg';
import type { DiscountType } from '@nh/shared';
import type { Db, DbOrTx } from '../db/client';
import { promoCodes } from '../db/schema';

export interface PromoRow {
  id: number;
  code: string;
  discountType: string;
  discountValue: number;
  isActive: boolean;
  singleUse: boolean;
  redeemed: boolean;
}

/** A promo code that may be applied to an order now. */
export interface UsablePromo extends PromoRow {
  discountType: DiscountType;
}

/** Active, not a single-use code already redeemed, and of a discount type pricing knows. */
export const isUsablePromo = (row: PromoRow): row is UsablePromo =>
  row.isActive && !(row.singleUse && row.redeemed) && (row.discountType === 'percentage' || row.discountType === 'fixed');

export async function findPromo(db: pg.Pool | pg.PoolClient, code: string): Promise<PromoRow | null> {
  const { rows } = await db.query<{ id: number; code: string; discount_type: string; discount_value: number; is_active: boolean; single_use: boolean; redeemed: boolean }>({
    name: 'promo_find',
    text: 'select id, code, discount_type, discount_value, is_active, single_use, redeemed_at is not null as redeemed from promo_codes where code = $1',
    values: [code],
  });
  const r = rows[0];
  return r
    ? { id: r.id, code: r.code, discountType: r.discount_type, discountValue: r.discount_value, isActive: r.is_active, singleUse: r.single_use, redeemed: r.redeemed }
    : null;
}

/** The code by this name when it is usable (see `isUsablePromo`); otherwise null. */
export async function findUsablePromo(db: pg.Pool | pg.PoolClient, code: string): Promise<UsablePromo | null> {
  const row = await findPromo(db, code);
  return row && isUsablePromo(row) ? row : null;
}

// ---------------------------------------------------------------- back office
/** A code as staff see it. */
export interface StaffPromoRow {
  id: number;
  code: string;
  discountType: string;
  discountValue: number;
  isActive: boolean;
}

const staffColumns = { id: promoCodes.id, code: promoCodes.code, discountType: promoCodes.discountType, discountValue: promoCodes.discountValue, isActive: promoCodes.isActive };

/** Every code, newest first. */
export async function listPromoCodeRows(db: Db): Promise<StaffPromoRow[]> {
  return db.select(staffColumns).from(promoCodes).orderBy(desc(promoCodes.createdAt), desc(promoCodes.id));
}

/** A new code; a code already taken fails with the unique violation (23505). */
export async function insertPromoCode(tx: DbOrTx, values: { code: string; discountType: DiscountType; discountValue: number }): Promise<StaffPromoRow> {
  const [row] = await tx.insert(promoCodes).values(values).returning(staffColumns);
  return row!;
}

/** Flips isActive in one statement (two staff toggling at once each flip it once); null for an unknown id. */
export async function togglePromoCodeRow(tx: DbOrTx, id: number): Promise<StaffPromoRow | null> {
  const [row] = await tx
    .update(promoCodes)
    .set({ isActive: not(promoCodes.isActive) })
    .where(eq(promoCodes.id, id))
    .returning(staffColumns);
  return row ?? null;
}
