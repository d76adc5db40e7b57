/** Admin promo codes: list, create, toggle. Whether a code is usable is one rule, @nh/server's queries/promo.ts. */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { insertPromoCode, listPromoCodeRows, togglePromoCodeRow, type StaffPromoRow } from '@nh/server/queries/promo';
import { ADMIN_MESSAGES, type AdminPromoCode } from '@nh/shared/contracts/admin';
import type { DiscountType } from '@nh/shared';
import { AppError } from '../../../lib/errors';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../../lib/db-errors';

const toPromo = (row: StaffPromoRow): AdminPromoCode => ({
  ...row,
  discountType: row.discountType as DiscountType,
});

/** Every code, newest first (personal newsletter codes included: staff may need to switch one off). */
export async function listPromoCodes(db: Db): Promise<AdminPromoCode[]> {
  const rows = await listPromoCodeRows(db);
  return rows.map(toPromo);
}

export async function createPromoCode(db: Db, input: { code: string; discountType: DiscountType; discountValue: number }, actor: AuditActor): Promise<AdminPromoCode> {
  try {
    return await db.transaction(async (tx) => {
      const promo = toPromo(await insertPromoCode(tx, input));
      await recordAudit(tx, actor, { action: 'promo.created', entityType: 'promo_code', entityId: String(promo.id), before: null, after: { ...promo } });
      return promo;
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('PROMO_CODE_EXISTS', ADMIN_MESSAGES.promoExists);
    throw error;
  }
}

/** Flips isActive in one statement (two staff toggling at once each flip it once). */
export async function togglePromoCode(db: Db, id: number, actor: AuditActor): Promise<AdminPromoCode> {
  return db.transaction(async (tx) => {
    const row = await togglePromoCodeRow(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.promoNotFound);
    const promo = toPromo(row);
    await recordAudit(tx, actor, { action: 'promo.toggled', entityType: 'promo_code', entityId: String(id), before: { isActive: !promo.isActive }, after: { isActive: promo.isActive } });
    return promo;
  });
}
