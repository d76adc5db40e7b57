/**
 * Sign-in codes emailed to shoppers (issue 22, docs/decisions/passwordless.md): 6 digits, 10 minutes,
 * once, at most 5 tries. The API writes the row with a hash nothing matches; the mail worker makes the
 * code as it sends (`mintSignInCode`), so the code is only ever in the email. The stored hash is an
 * HMAC-SHA256 of (row id, code) under a pepper kept out of the database (`SIGN_IN_CODE_PEPPER`): a bare
 * SHA-256 of one of 10^6 codes is reversed offline in milliseconds from a copy of the table.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../db/client';
import { signInCodes } from '../db/schema';
import { unsentTokenHash } from './single-use-tokens';

export const SIGN_IN_CODE_TRIES = 5;
const DEV_PEPPER = 'dev-only-sign-in-code-pepper';

/** The pepper: SIGN_IN_CODE_PEPPER (required in production, where a missing one fails the send or the check). */
export function signInCodePepper(env: NodeJS.ProcessEnv = process.env): string {
  const pepper = env.SIGN_IN_CODE_PEPPER;
  if (pepper) return pepper;
  if (env.NODE_ENV === 'production') throw new Error('SIGN_IN_CODE_PEPPER is required when NODE_ENV=production');
  return DEV_PEPPER;
}

export const hashSignInCode = (id: string, code: string): string =>
  createHmac('sha256', signInCodePepper()).update(`${id}:${code}`, 'utf8').digest('hex');

/** Six digits from the crypto generator, leading zeros kept. */
export const newSignInCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export type SignInCodeRow = typeof signInCodes.$inferSelect;

/** A new code's row; its code is made by the mail worker as the email is sent. */
export async function insertSignInCode(tx: DbOrTx, values: { email: string; userId: string | null; expiresAt: Date }): Promise<SignInCodeRow> {
  const [row] = await tx
    .insert(signInCodes)
    .values({ ...values, email: values.email.toLowerCase(), codeHash: unsentTokenHash() })
    .returning();
  return row!;
}

export async function findSignInCodeById(db: DbOrTx, id: string): Promise<SignInCodeRow | null> {
  const [row] = await db.select().from(signInCodes).where(eq(signInCodes.id, id));
  return row ?? null;
}

/** The code, made as its email is sent: only while the row is unused, unexpired and untried out. Null otherwise. */
export async function mintSignInCode(client: pg.ClientBase, id: string): Promise<string | null> {
  const code = newSignInCode();
  const { rowCount } = await client.query({
    name: 'mint_sign_in_code',
    text: `update sign_in_codes set code_hash = $1 where id = $2 and used_at is null and expires_at > now() and tries < ${SIGN_IN_CODE_TRIES}`,
    values: [hashSignInCode(id, code), id],
  });
  return rowCount ? code : null;
}

const equalHex = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/**
 * Checks a typed code against the email's open codes. Every open code of the email spends a try first
 * (atomically, so parallel guesses cannot pass 5), then the code is compared; a match spends it and the
 * email's other open codes, in one transaction. The same hashing runs when no code is open, so an
 * unknown email costs the same. The account signed in (null userId: a checkout's sign-up code, whose
 * account the caller makes), or null when nothing matched.
 */
export async function spendSignInCode(db: DbOrTx, email: string, code: string): Promise<{ userId: string | null; email: string } | null> {
  return db.transaction(async (tx) => {
    const open = await tx
      .update(signInCodes)
      .set({ tries: sql`${signInCodes.tries} + 1` })
      .where(
        and(
          eq(signInCodes.email, email.toLowerCase()),
          isNull(signInCodes.usedAt),
          gt(signInCodes.expiresAt, sql`now()`),
          lt(signInCodes.tries, SIGN_IN_CODE_TRIES),
        ),
      )
      .returning({ id: signInCodes.id, codeHash: signInCodes.codeHash, userId: signInCodes.userId, email: signInCodes.email });
    const candidates = open.length ? open : [{ id: '00000000-0000-0000-0000-000000000000', codeHash: unsentTokenHash(), userId: null, email: '' }];
    const match = candidates.find((row) => equalHex(hashSignInCode(row.id, code), row.codeHash));
    if (!match || !match.email) return null;
    await tx
      .update(signInCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(signInCodes.email, match.email), isNull(signInCodes.usedAt)));
    return { userId: match.userId, email: match.email };
  });
}
