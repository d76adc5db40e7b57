/**
 * Where to send a shopper after signing in: only a path on this site ("/subscriptions"), never another
 * host ("//evil.example", "https://…", "/\\evil.example"), so the sign-in page cannot be used as an
 * open redirect. Anything else means the home page.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  return value;
}
