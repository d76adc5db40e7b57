/**
 * OAuth 1.0a token-based authentication (TBA) as NetSuite wants it: HMAC-SHA256, realm = account id,
 * a fresh nonce and timestamp on every request. The same header `netsuite-rest` (via `oauth-1.0a`)
 * builds, byte for byte (a test compares them), with the constant parts worked out once instead of
 * per request: the signing key, the encoded consumer/token parameters and the header's fixed text.
 */
import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';

export interface OAuthCredentials {
  accountId: string;
  consumerKey: string;
  consumerSecret: string;
  tokenId: string;
  tokenSecret: string;
}

/** RFC 3986 percent-encoding (encodeURIComponent leaves `!*'()` alone; OAuth does not). */
export const percentEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const SIGNATURE_METHOD = 'HMAC-SHA256';
const VERSION = '1.0';

export class OAuthSigner {
  private readonly key: KeyObject;
  /** `oauth_consumer_key=…&oauth_nonce=`: the parameters sorting before the nonce. */
  private readonly paramsHead: string;
  /** `&oauth_token=…&oauth_version=1.0`: the ones sorting after the timestamp. */
  private readonly paramsTail: string;
  private readonly headerHead: string;
  private readonly headerTail: string;

  constructor(credentials: OAuthCredentials) {
    const { accountId, consumerKey, consumerSecret, tokenId, tokenSecret } = credentials;
    this.key = createSecretKey(Buffer.from(`${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`));
    this.paramsHead = `oauth_consumer_key=${percentEncode(consumerKey)}&oauth_nonce=`;
    this.paramsTail = `&oauth_token=${percentEncode(tokenId)}&oauth_version=${VERSION}`;
    this.headerHead = `OAuth realm="${accountId}", oauth_consumer_key="${percentEncode(consumerKey)}", oauth_nonce="`;
    this.headerTail = `", oauth_token="${percentEncode(tokenId)}", oauth_version="${VERSION}"`;
  }

  /**
   * The `Authorization` header for one request; nonce and timestamp are fresh unless given (tests). The
   * nonce is a random UUID's 32 hex digits (122 random bits; Node hands them out from a buffered pool).
   */
  authorization(method: string, url: string, nonce = randomUUID().replace(/-/g, ''), timestamp = Math.floor(Date.now() / 1000)): string {
    const query = url.indexOf('?');
    const params = `${this.paramsHead}${percentEncode(nonce)}&oauth_signature_method=${SIGNATURE_METHOD}&oauth_timestamp=${timestamp}${this.paramsTail}`;
    const base = `${method.toUpperCase()}&${percentEncode(query < 0 ? url : url.slice(0, query))}&${percentEncode(query < 0 ? params : withQuery(params, url.slice(query + 1)))}`;
    const signature = createHmac('sha256', this.key).update(base).digest('base64');
    return `${this.headerHead}${percentEncode(nonce)}", oauth_signature="${percentEncode(signature)}", oauth_signature_method="${SIGNATURE_METHOD}", oauth_timestamp="${timestamp}${this.headerTail}`;
  }
}

/** Query parameters join the signed parameters, all encoded and sorted by key, then value. */
function withQuery(params: string, query: string): string {
  const pairs = params.split('&').map((pair) => pair.split('=') as [string, string]);
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const [k = '', v = ''] = pair.split('=');
    pairs.push([percentEncode(decodeURIComponent(k)), percentEncode(decodeURIComponent(v))]);
  }
  pairs.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}
