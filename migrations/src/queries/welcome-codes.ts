/**
 * A newsletter subscriber's personal single-use code (`promo_codes.issued_for`, unique: one code per
 * recipient), issued by the welcome email (workers emails/welcome-code.ts draws the code).
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { promoCodes } from '../db/schema';

/** The code issued for `issuedFor` (e.g. `newsletter:<subscriber id>`), if any. */
export async function findIssuedCode(db: DbOrTx, issuedFor: string): Promise<string | undefined> {
  return (await db.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.issuedFor, issuedFor)))[0]?.code;
}

/**
 * Issues `code`, a single-use percentage code, for `issuedFor`; undefined when it was not written
 * because the code or the recipient already has one (on conflict, nothing).
 */
export async function insertIssuedCode(db: DbOrTx, c: { code: string; percent: number; issuedFor: string }): Promise<string | undefined> {
  const inserted = await db
    .insert(promoCodes)
    .values({ code: c.code, discountType: 'percentage', discountValue: c.percent, singleUse: true, isActive: true, issuedFor: c.issuedFor })
    .onConflictDoNothing()
    .returning({ code: promoCodes.code });
  return inserted[0]?.code;
}
