/**
 * The emailed single-use links of staff (invitations, resets) and shoppers (resets, a guest's order
 * link, a plan's card link) share one rule: 256 random bits, only their SHA-256 stored, so a copy of the database opens no
 * link and signs nobody in.
 *
 * The raw token exists in one place only, the email. The API writes the link's row with the hash of a
 * random value nobody keeps (`unsentTokenHash`): the outbox row and the email job carry the row's id,
 * never a secret. The mail worker makes the token when it sends the email (`mintSingleUseToken`, inside
 * the email's send transaction, once the email log says it was not sent yet), storing its hash on the
 * row; so no outbox row, job, job result or log line holds anything that opens the link.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../db/client';

/** A new random token (base64url, 256 bits) and the hash the database keeps of it. */
export function newSingleUseToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSingleUseToken(token) };
}

export const hashSingleUseToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The hash a link's row holds until its email is sent: of a random token nobody keeps, so it opens nothing. */
export const unsentTokenHash = (): string => newSingleUseToken().hash;

/** The tables of single-use links (each has id, token_hash, used_at and expires_at). */
export type SingleUseTokenTable = 'staff_tokens' | 'shopper_tokens' | 'plan_card_links';

/** Every table of emailed single-use links and codes: each has id, used_at and expires_at. */
export type SingleUseLinkTable = SingleUseTokenTable | 'email_action_tokens' | 'sign_in_codes';

/**
 * The link's token, made as its email is sent: a new random token whose hash replaces the row's, only
 * while the link is neither used nor expired. Any token made before for the row stops working (an
 * earlier attempt whose email never left). Null when the link was spent or expired meanwhile.
 */
export async function mintSingleUseToken(client: pg.ClientBase, table: SingleUseTokenTable, id: string): Promise<string | null> {
  const { token, hash } = newSingleUseToken();
  const { rowCount } = await client.query({
    name: `mint_${table}`,
    text: `update ${table} set token_hash = $1 where id = $2 and used_at is null and expires_at > now()`,
    values: [hash, id],
  });
  return rowCount ? token : null;
}

/**
 * Spends a link in the caller's transaction: once, and only before it expires. False when it was spent
 * or expired meanwhile (another tab, a second click).
 */
export async function spendSingleUseLink(tx: DbOrTx, table: SingleUseLinkTable, id: string): Promise<boolean> {
  const { rows } = await tx.execute(sql`update ${sql.identifier(table)} set used_at = now() where id = ${id} and used_at is null and expires_at > now() returning id`);
  return rows.length > 0;
}

/** Housekeeping: up to `batch` links that expired more than `olderThanDays` ago (spent or not, they open nothing). */
export async function deleteOldSingleUseLinks(pool: pg.Pool, table: SingleUseLinkTable, olderThanDays: number, batch: number): Promise<number> {
  if (!Number.isSafeInteger(batch)) throw new TypeError('batch: integers only');
  const { rowCount } = await pool.query(
    `delete from ${table} where id in (select id from ${table} where expires_at < now() - make_interval(days => $1) limit ${batch})`,
    [olderThanDays],
  );
  return rowCount ?? 0;
}
