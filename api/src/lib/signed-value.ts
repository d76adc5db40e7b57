/**
 * A cookie value the browser carries but cannot forge: `payload.tag`, the tag an HMAC-SHA256 of the
 * payload (base64url, cut to `tagLength` characters) under a key derived from SESSION_SECRET for one
 * purpose, so a value signed for one cookie is worthless in another. Used by the guest's hour with an
 * order (guest-access.ts) and the read-your-writes mark (read-your-writes.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ValueSigner {
  /** `payload.tag`. The payload must not be a secret: it travels in clear. */
  sign: (payload: string) => string;
  /** The payload of a value this signer signed, or null for anything else (absent, cut, altered). */
  open: (signed: string | null | undefined) => string | null;
}

/** A SHA-256 tag in base64url: 43 characters. A shorter tag is a prefix of it. */
const FULL_TAG = 43;

export function valueSigner(secret: string, purpose: string, tagLength = FULL_TAG): ValueSigner {
  const key = createHmac('sha256', secret).update(purpose).digest();
  const tagOf = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url').slice(0, tagLength);
  return {
    sign: (payload) => `${payload}.${tagOf(payload)}`,
    open(signed) {
      const dot = signed?.lastIndexOf('.') ?? -1;
      if (!signed || dot < 0 || signed.length - dot - 1 !== tagLength) return null;
      const payload = signed.slice(0, dot);
      // Compared as bytes of equal length: a tag of 43 characters may still hold a multi-byte one.
      const given = Buffer.from(signed.slice(dot + 1));
      const expected = Buffer.from(tagOf(payload));
      return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
    },
  };
}
