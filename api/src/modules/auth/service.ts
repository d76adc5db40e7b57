import type { AuthUser } from '@nh/shared/contracts/auth';
import type { DbOrTx } from '@nh/server/db/client';
import { decoyHash, hashPassword, verifyPassword } from '@nh/server/passwords';
import { findUserForSignIn, insertUser } from '@nh/server/queries/shopper-accounts';

/** The account for these credentials, or null (unknown email, no password set, or wrong password). */
export async function authenticate(db: DbOrTx, email: string, password: string): Promise<AuthUser | null> {
  const row = await findUserForSignIn(db, email);
  // Always run scrypt once, so an unknown email costs the same time as a wrong password.
  const ok = await verifyPassword(password, row?.passwordHash ?? (await decoyHash()));
  if (!row || !row.passwordHash || !ok) return null;
  const { passwordHash: _hash, ...user } = row;
  return user;
}

/** Creates an account; null when the email already has one. */
export async function register(
  db: DbOrTx,
  input: { email: string; password: string; firstName: string; lastName: string },
): Promise<AuthUser | null> {
  const passwordHash = await hashPassword(input.password);
  const user = await insertUser(db, { email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash });
  return user ?? null;
}
