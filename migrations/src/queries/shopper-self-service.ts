/**
 * Shoppers helping themselves (issue 13): their orders, a guest's order looked up by number and email,
 * and the single-use emailed links (password reset, a guest's order link) in `shopper_tokens`.
 */
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { orders, sessions, shopperTokens, users, type OrderRow } from '../db/schema';
import { refundedCentsSql } from './order-refunds';
import { unsentTokenHash } from './single-use-tokens';

/** What a shopper sees of an order (never the payment or NetSuite fields). */
export type ShopperOrderRow = Pick<
  OrderRow,
  'id' | 'status' | 'createdAt' | 'customerName' | 'customerEmail' | 'shippingAddress' | 'items' | 'subtotal' | 'discount' | 'subscribeDiscount' | 'promoDiscount' | 'shipping' | 'shippingMethod' | 'tax' | 'total' | 'creditApplied' | 'promoCode' | 'carrier' | 'trackingNumber' | 'deliveredDate'
> & { refunded: number };

const shopperOrderColumns = {
  id: orders.id,
  status: orders.status,
  createdAt: orders.createdAt,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  shippingAddress: orders.shippingAddress,
  items: orders.items,
  subtotal: orders.subtotal,
  discount: orders.discount,
  subscribeDiscount: orders.subscribeDiscount,
  promoDiscount: orders.promoDiscount,
  shipping: orders.shipping,
  shippingMethod: orders.shippingMethod,
  tax: orders.tax,
  total: orders.total,
  creditApplied: orders.creditApplied,
  /** Issue 23: cents given back so far (order-refunds.ts). */
  refunded: refundedCentsSql,
  promoCode: orders.promoCode,
  carrier: orders.carrier,
  trackingNumber: orders.trackingNumber,
  deliveredDate: orders.deliveredDate,
};

/** A shopper's orders, newest first. */
export async function listOrdersOfUser(db: DbOrTx, userId: string, limit: number): Promise<ShopperOrderRow[]> {
  return db.select(shopperOrderColumns).from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(limit);
}

/** One order, only if it is this shopper's (another shopper's order is simply not found). */
export async function findOrderOfUser(db: DbOrTx, userId: string, orderId: string): Promise<ShopperOrderRow | null> {
  const [row] = await db.select(shopperOrderColumns).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  return row ?? null;
}

export async function findShopperOrder(db: DbOrTx, orderId: string): Promise<ShopperOrderRow | null> {
  const [row] = await db.select(shopperOrderColumns).from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

/**
 * The orders a guest's lookup names: the order number (the id's first characters, as every email
 * shows it, or the whole id) and the email it was placed with, both matched exactly (case aside).
 */
export async function findOrdersForLookup(db: DbOrTx, orderNumber: string, email: string): Promise<Array<{ id: string; customerEmail: string }>> {
  return db
    .select({ id: orders.id, customerEmail: orders.customerEmail })
    .from(orders)
    .where(and(sql`${orders.id}::text like ${`${orderNumber.toLowerCase()}%`}`, sql`lower(${orders.customerEmail}) = ${email.toLowerCase()}`))
    .limit(5);
}

// ---------------------------------------------------------------- single-use links
export type ShopperTokenRow = typeof shopperTokens.$inferSelect;
export type ShopperTokenPurpose = ShopperTokenRow['purpose'];

/** A new link's row; its token is made by the mail worker when the email is sent (./single-use-tokens). */
export async function insertShopperToken(
  tx: DbOrTx,
  values: { purpose: ShopperTokenPurpose; email: string; userId?: string | null; orderId?: string | null; expiresAt: Date },
): Promise<ShopperTokenRow> {
  const [row] = await tx
    .insert(shopperTokens)
    .values({ ...values, tokenHash: unsentTokenHash(), email: values.email.toLowerCase() })
    .returning();
  return row!;
}

export async function findShopperToken(db: DbOrTx, tokenHash: string, purpose: ShopperTokenPurpose): Promise<ShopperTokenRow | null> {
  const [row] = await db
    .select()
    .from(shopperTokens)
    .where(and(eq(shopperTokens.tokenHash, tokenHash), eq(shopperTokens.purpose, purpose)));
  return row ?? null;
}

export async function findShopperTokenById(db: DbOrTx, id: string): Promise<ShopperTokenRow | null> {
  const [row] = await db.select().from(shopperTokens).where(eq(shopperTokens.id, id));
  return row ?? null;
}

/** Spends a token: once, and only before it expires. Null when it was spent or expired meanwhile. */
export async function spendShopperToken(tx: DbOrTx, id: string): Promise<ShopperTokenRow | null> {
  const [row] = await tx
    .update(shopperTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(shopperTokens.id, id), isNull(shopperTokens.usedAt), gt(shopperTokens.expiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}

/** Spends every open reset link of an account (its password just changed): links emailed earlier stop working. */
export async function spendShopperResets(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(shopperTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(shopperTokens.userId, userId), eq(shopperTokens.purpose, 'password_reset'), isNull(shopperTokens.usedAt)));
}

// ---------------------------------------------------------------- accounts
export async function findUserByEmail(db: DbOrTx, email: string): Promise<{ id: string; email: string; firstName: string | null; passwordHash: string | null } | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  return row ?? null;
}

export async function findUserNameById(db: DbOrTx, id: string): Promise<{ firstName: string | null } | null> {
  const [row] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, id));
  return row ?? null;
}

/** Whom a shopper's account email goes to: the address and first name (the sign-in failures email). */
export async function findUserContactById(
  db: DbOrTx,
  id: string,
): Promise<{ email: string; firstName: string | null; hasPassword: boolean } | null> {
  const [row] = await db
    .select({ email: users.email, firstName: users.firstName, hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}

export async function setUserPassword(tx: DbOrTx, userId: string, passwordHash: string): Promise<void> {
  await tx.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, userId));
}

/** Ends every session of a shopper (express-session rows whose data names the user); how many ended. */
export async function deleteSessionsOfUser(tx: DbOrTx, userId: string): Promise<number> {
  const rows = await tx.delete(sessions).where(sql`${sessions.sess}->>'userId' = ${userId}`).returning({ sid: sessions.sid });
  return rows.length;
}
