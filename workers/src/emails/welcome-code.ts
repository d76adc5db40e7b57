import { randomInt } from 'node:crypto';
import { NEWSLETTER_DISCOUNT_PERCENT } from '@nh/shared';
import type { Db } from '@nh/server/db/client';
import { findIssuedCode, insertIssuedCode } from '@nh/server/queries/welcome-codes';

// No 0/O or 1/I: the code is read off an email and typed in. 32 letters.
export const WELCOME_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 32^10 ≈ 10^15 codes: with promo refusals limited per address, guessing a live one is hopeless. */
export const WELCOME_CODE_RANDOM_LENGTH = 10;

export function randomWelcomeCode(): string {
  let suffix = '';
  for (let i = 0; i < WELCOME_CODE_RANDOM_LENGTH; i++) suffix += WELCOME_CODE_ALPHABET[randomInt(WELCOME_CODE_ALPHABET.length)];
  return `WELCOME-${suffix}`;
}

/**
 * The subscriber's personal single-use 15% code, created on first call and returned unchanged after
 * (promo_codes.issued_for is unique), so a retried welcome email carries the same code.
 */
export async function ensureWelcomeCode(db: Db, subscriberId: number): Promise<string> {
  const issuedFor = `newsletter:${subscriberId}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await findIssuedCode(db, issuedFor);
    if (existing) return existing;
    const inserted = await insertIssuedCode(db, { code: randomWelcomeCode(), percent: NEWSLETTER_DISCOUNT_PERCENT, issuedFor });
    if (inserted) return inserted;
    // Either another attempt issued this subscriber's code (found next time round) or the random code was taken.
  }
  throw new Error(`could not issue a welcome code for subscriber ${subscriberId}`);
}
