/** Shopper accounts (table users): the signed-in shopper, sign-in by email, registration. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';

const authUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
};

export async function findUserById(db: DbOrTx, id: string) {
  const [row] = await db.select(authUserColumns).from(users).where(eq(users.id, id));
  return row;
}

/** Emails are stored lower-case, so this lookup is exact. */
export async function findUserForSignIn(db: DbOrTx, email: string) {
  const [row] = await db.select({ ...authUserColumns, passwordHash: users.passwordHash }).from(users).where(eq(users.email, email));
  return row;
}

/** Undefined when the email is already taken. */
export async function insertUser(db: DbOrTx, values: { email: string; firstName: string; lastName: string; passwordHash: string }) {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning(authUserColumns);
  return row;
}

/**
 * An account without a password (issue 22: a guest who verified their email at checkout to subscribe);
 * signs in by emailed code, or sets a password through the reset. The existing account when the email
 * has one (made meanwhile).
 */
export async function findOrInsertPasswordlessUser(db: DbOrTx, values: { email: string; firstName: string | null; lastName: string | null }) {
  const [row] = await db.insert(users).values({ ...values, passwordHash: null }).onConflictDoNothing({ target: users.email }).returning(authUserColumns);
  return row ?? (await db.select(authUserColumns).from(users).where(eq(users.email, values.email)))[0]!;
}
