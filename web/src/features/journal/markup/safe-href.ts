/**
 * Which link targets an article may use. Only web links, site-relative paths, in-page anchors and
 * mailto are allowed; `javascript:`, `data:`, `vbscript:` and anything unrecognised are refused
 * (the renderer then shows the link's text without a link).
 */
export type LinkKind = 'internal' | 'anchor' | 'relative' | 'external' | 'mailto';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

export function classifyHref(rawHref: string): LinkKind | null {
  const href = rawHref.trim();
  if (href === '') return null;
  // Browsers ignore tabs, newlines and other control characters inside URLs ("java\tscript:"),
  // so any whitespace or control character inside a target disqualifies it outright.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f\\]/.test(href)) return null;
  if (href.startsWith('//')) return null; // protocol-relative: an external host without a scheme
  if (href.startsWith('/')) return 'internal';
  if (href.startsWith('#')) return 'anchor';
  const scheme = SCHEME.exec(href)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'relative';
  if (scheme === 'http' || scheme === 'https') return 'external';
  if (scheme === 'mailto') return 'mailto';
  return null;
}
