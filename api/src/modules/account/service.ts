/**
 * Shoppers helping themselves: a guest's emailed order link and the password reset. Both requests
 * answer the same whether or not anything matched, in words and in time (the routes answer before
 * this work is done); the links are single-use tokens of which only the hash is stored, made by the
 * mail worker as it sends the email (the staff accounts' rule, @nh/server's single-use-tokens).
 */
import { deleteSessionsOfUser, findOrdersForLookup, findShopperToken, findUserByEmail, insertShopperToken, setUserPassword, spendShopperResets, spendShopperToken } from '@nh/server/queries/shopper-self-service';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { recordOutbox } from '@nh/server/queries/outbox';
import type { Db } from '@nh/server/db/client';
import { hashPassword } from '@nh/server/passwords';
import { ACCOUNT_MESSAGES, ORDER_LINK_TTL_MS, SHOPPER_RESET_TTL_MS } from '@nh/shared/contracts/account';
import { AppError } from '../../lib/errors';

/** Emails a single-use link to each order the number and email name (none when nothing matches). */
export async function requestOrderLink(db: Db, orderNumber: string, email: string): Promise<number> {
  const matches = await findOrdersForLookup(db, orderNumber, email);
  if (matches.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (const order of matches) {
      const row = await insertShopperToken(tx, { purpose: 'order_access', email: order.customerEmail, orderId: order.id, expiresAt: new Date(Date.now() + ORDER_LINK_TTL_MS) });
      await recordOutbox(tx, 'order.link-requested', { tokenId: row.id });
    }
  });
  return matches.length;
}

/** Spends an order link (once, also under two clicks at once): the order it opens. */
export async function spendOrderLink(db: Db, token: string): Promise<string> {
  const row = await findShopperToken(db, hashSingleUseToken(token), 'order_access');
  if (!row || !row.orderId) throw new AppError('ORDER_LINK_INVALID', ACCOUNT_MESSAGES.orderLinkInvalid);
  if (row.usedAt) throw new AppError('ORDER_LINK_USED', ACCOUNT_MESSAGES.orderLinkUsed);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('ORDER_LINK_EXPIRED', ACCOUNT_MESSAGES.orderLinkExpired);
  const spent = await spendShopperToken(db, row.id);
  if (!spent) throw new AppError('ORDER_LINK_USED', ACCOUNT_MESSAGES.orderLinkUsed);
  return row.orderId;
}

/** A reset link (1 h, single use) for an account with a password; nothing for an unknown address. */
export async function requestPasswordReset(db: Db, email: string): Promise<boolean> {
  const user = await findUserByEmail(db, email);
  if (!user) return false;
  await db.transaction(async (tx) => {
    const row = await insertShopperToken(tx, { purpose: 'password_reset', email: user.email, userId: user.id, expiresAt: new Date(Date.now() + SHOPPER_RESET_TTL_MS) });
    await recordOutbox(tx, 'shopper.password-reset-requested', { tokenId: row.id });
  });
  return true;
}

/**
 * Sets the new password, spends the token (and every other open reset link of the account: a link
 * emailed earlier no longer works) and ends every session of the account, in one transaction; whose account it was.
 */
export async function confirmPasswordReset(db: Db, token: string, password: string): Promise<{ sessionsEnded: number; email: string }> {
  const row = await findShopperToken(db, hashSingleUseToken(token), 'password_reset');
  if (!row || !row.userId || row.usedAt || row.expiresAt.getTime() <= Date.now()) throw new AppError('PASSWORD_RESET_INVALID', ACCOUNT_MESSAGES.resetInvalid);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const spent = await spendShopperToken(tx, row.id);
    if (!spent?.userId) throw new AppError('PASSWORD_RESET_INVALID', ACCOUNT_MESSAGES.resetInvalid);
    await setUserPassword(tx, spent.userId, passwordHash);
    await spendShopperResets(tx, spent.userId);
    return { sessionsEnded: await deleteSessionsOfUser(tx, spent.userId), email: spent.email };
  });
}
