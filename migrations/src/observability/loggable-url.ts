/**
 * A URL as a log line or a trace may keep it: every secret in it replaced by `[redacted]`. The one rule
 * for the API's request log, its other log lines that name a path, and the request spans' `url.path`
 * and `url.query` (tracing-sdk.ts).
 *
 * Emailed links carry their single-use tokens in the fragment, which browsers never send; but a link
 * from an email sent before that, an address typed by hand or a caller's mistake can still bring one in
 * a query string, and the one-click unsubscribe link's token is a path segment by design (RFC 8058).
 */

export const REDACTED = '[redacted]';

/**
 * Path segments that are secrets: the token after `/unsubscribe/` and after `/update-card/` (a plan's card
 * link), `/email-actions/` (a one-click action from an email) and `/confirm-email/` and `/email-change/`
 * (a customer confirming a new email address, issue 23), the page's and the API's. Express matches paths whatever their case, so this does too.
 */
const SECRET_SEGMENT = /(\/(?:unsubscribe|update-card|email-actions|confirm-email|email-change)\/)[^/?#]+/gi;

/** Query (or fragment) parameters whose names say they hold a secret: tokens, keys, passwords, signatures, codes, sessions. */
const SECRET_PARAM = /token|secret|passw|pwd|key|sig|auth|credential|session|sid|code|otp|nonce|jwt/i;

const decodedName = (name: string): string => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};

/** A query string (or fragment) without its leading `?`, each secret parameter's value replaced; everything else as it was. */
export const loggableQuery = (query: string): string =>
  query.replace(/(^|[&;])([^=&;]*)=([^&;]*)/g, (all, sep: string, name: string) =>
    SECRET_PARAM.test(decodedName(name)) ? `${sep}${name}=${REDACTED}` : all,
  );

/** A path without its secret segments. */
export const loggablePath = (path: string): string => path.replace(SECRET_SEGMENT, `$1${REDACTED}`);

/** A URL (a request's path and query, or an absolute URL) with every secret replaced. */
export function loggableUrl(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? null : url.slice(hash + 1);
  const question = beforeHash.indexOf('?');
  const path = question < 0 ? beforeHash : beforeHash.slice(0, question);
  const query = question < 0 ? null : beforeHash.slice(question + 1);
  return loggablePath(path) + (query === null ? '' : `?${loggableQuery(query)}`) + (fragment === null ? '' : `#${loggableQuery(fragment)}`);
}
