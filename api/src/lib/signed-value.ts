/**
 * A cookie value the browser carries but cannot forge: `payload.tag`, the tag an HMAC-SHA256 of the
 * payload (base64url, cut to `tagLength` characters) under a key derived from SESSION_SECRET for one
 * purpose, so a value signed for one cookie is worthless in another. Used by the guest's hour with an
 * order (guest-access.ts) and the read-your-writes mark (read-your-writes.ts); the known-browser
 * cookie's tags (known-browser.ts) use its key derivation and comparison.
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

/**
 * The tag of a text under a key derived from SESSION_SECRET for one purpose: HMAC-SHA256, base64url,
 * cut to `tagLength` characters. The one derivation of the API's signed cookies (these and known-browser.ts).
 */
export function purposeTag(secret: string, purpose: string, tagLength = FULL_TAG): (text: string) => string {
  const key = createHmac('sha256', secret).update(purpose).digest();
  return (text) => createHmac('sha256', key).update(text).digest('base64url').slice(0, tagLength);
}

/**
 * Whether a tag a browser sent is `expected`, in constant time. Compared as bytes of equal length: Node
 * reads a header as latin1, so a tag of the right length in characters may still be longer in bytes.
 */
export function sameTag(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function valueSigner(secret: string, purpose: string, tagLength = FULL_TAG): ValueSigner {
  const tagOf = purposeTag(secret, purpose, tagLength);
  return {
    sign: (payload) => `${payload}.${tagOf(payload)}`,
    open(signed) {
      const dot = signed?.lastIndexOf('.') ?? -1;
      if (!signed || dot < 0 || signed.length - dot - 1 !== tagLength) return null;
      const payload = signed.slice(0, dot);
      return sameTag(signed.slice(dot + 1), tagOf(payload)) ? payload : null;
    },
  };
}
