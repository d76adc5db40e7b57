/**
 * Fills the built index.html's head with a page's: its title and description replace the shop's, and
 * the canonical link, Open Graph and Twitter tags are added. Values are escaped; URLs are absolute.
 */
import { CURRENCY, SHOP } from '@nh/shared/constants';
import type { PageHead } from './page-status';
import { pageUrl } from './site-origin';
import { jsonForScript } from './structured-data';
import { escapeHtml } from '@nh/shared/html';


export function renderHead(indexHtml: string, head: PageHead, origin: string): string {
  // The page's own address: the shop's origin and its path (the path may come from the request).
  const canonical = pageUrl(origin, head.canonical);
  // A picture: a path on the shop or a URL staff gave.
  const absolute = (pathOrUrl: string) => new URL(pathOrUrl, origin).toString();
  const meta = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
    head.noindex ? meta('name', 'robots', 'noindex') : '',
    meta('property', 'og:site_name', SHOP.name),
    meta('property', 'og:type', head.type),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', canonical),
    head.image ? meta('property', 'og:image', absolute(head.image)) : '',
    head.price ? meta('property', 'product:price:amount', head.price) : '',
    head.price ? meta('property', 'product:price:currency', CURRENCY) : '',
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    head.image ? meta('name', 'twitter:image', absolute(head.image)) : '',
    // A product page's largest picture (its LCP) is known here, long before the app asks for it.
    head.type === 'product' && head.image ? `<link rel="preload" as="image" href="${escapeHtml(head.image)}" fetchpriority="high" />` : '',
    // Data blocks, not scripts: the CSP's script-src does not apply to them.
    ...(head.jsonLd?.(origin) ?? []).map((data) => `<script type="application/ld+json">${jsonForScript(data)}</script>`),
  ].filter(Boolean);
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*" \/>/, meta('name', 'description', head.description))
    .replace('</head>', `${tags.map((t) => `    ${t}`).join('\n')}\n  </head>`);
}
