/**
 * The emailed single-use links of staff (invitations, resets) and shoppers (resets, a guest's order
 * link) share one rule: 256 random bits sent once, only their SHA-256 stored, so a copy of the database
 * opens no link and signs nobody in.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A new random token (base64url, 256 bits) and the hash the database keeps of it. */
export function newSingleUseToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSingleUseToken(token) };
}

export const hashSingleUseToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
