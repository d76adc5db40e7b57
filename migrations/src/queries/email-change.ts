/**
 * Changing an account's email, verified by the customer (issue 23): the single-use link of
 * `shopper_tokens` with purpose `email_change` (`email` the new address, `user_id` the account), and the
 * change itself once the customer confirms. The token's raw value is made by the mail worker as it sends
 * the email (./single-use-tokens); only its hash is here.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { shopperTokens, users } from '../db/schema';
import { insertShopperToken, type ShopperTokenRow } from './shopper-self-service';

/** Whether an account other than `userId` has this (lower-cased) address. */
export async function emailUsedByAnotherAccount(db: DbOrTx, email: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, userId)))
    .limit(1);
  return row !== undefined;
}

/** Spends the account's open email-change links (a new one replaces them; a confirmed change ends them). */
export async function spendOpenEmailChanges(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(shopperTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(shopperTokens.userId, userId), eq(shopperTokens.purpose, 'email_change'), isNull(shopperTokens.usedAt)));
}

/** A new email-change link (the account's earlier open ones spent first): its row, the token made when the email is sent. */
export async function insertEmailChange(tx: DbOrTx, values: { userId: string; email: string; expiresAt: Date }): Promise<ShopperTokenRow> {
  await spendOpenEmailChanges(tx, values.userId);
  return insertShopperToken(tx, { purpose: 'email_change', ...values });
}

/** The link's row by its token's hash, locked for the confirmation (null when there is none). */
export async function lockEmailChangeByHash(tx: DbOrTx, tokenHash: string): Promise<ShopperTokenRow | null> {
  const [row] = await tx
    .select()
    .from(shopperTokens)
    .where(and(eq(shopperTokens.tokenHash, tokenHash), eq(shopperTokens.purpose, 'email_change')))
    .for('update');
  return row ?? null;
}

/** Whether a newer email-change link was sent for the account after this one. */
export async function newerEmailChangeExists(db: DbOrTx, row: Pick<ShopperTokenRow, 'id' | 'userId' | 'createdAt'>): Promise<boolean> {
  if (!row.userId) return false;
  const [newer] = await db
    .select({ id: shopperTokens.id })
    .from(shopperTokens)
    .where(and(eq(shopperTokens.userId, row.userId), eq(shopperTokens.purpose, 'email_change'), ne(shopperTokens.id, row.id), sql`${shopperTokens.createdAt} > ${row.createdAt}`))
    .limit(1);
  return newer !== undefined;
}

/** The account's current address, its row locked for the change (null when the account is gone). */
export async function lockAccountEmail(tx: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update');
  return row?.email ?? null;
}

/**
 * The change: the account's email (the customers row follows through the users trigger of migration
 * customers, which also takes in a guest's orders of the new address), the link spent with the old
 * address kept for the notice, and every other open email-change and password-reset link of the account
 * spent (a reset emailed to the old address must not open the account any more).
 */
export async function applyEmailChange(tx: DbOrTx, tokenId: string, userId: string, newEmail: string, previousEmail: string): Promise<void> {
  await tx.update(users).set({ email: newEmail.toLowerCase(), updatedAt: sql`now()` }).where(eq(users.id, userId));
  await tx.update(shopperTokens).set({ usedAt: sql`now()`, previousEmail }).where(eq(shopperTokens.id, tokenId));
  await tx
    .update(shopperTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(shopperTokens.userId, userId), sql`${shopperTokens.purpose} in ('email_change', 'password_reset')`, isNull(shopperTokens.usedAt)));
}
