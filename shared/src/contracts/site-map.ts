/**
 * The storefront's public pages for crawlers (robots.txt, sitemap.xml) and the screens that list them.
 * Fixed paths here; products, categories and journal articles come from the catalogue.
 */

/** Content pages with a path of their own (aliases such as /products and /impact are left out: one URL per page). */
export const CONTENT_PAGE_PATHS = ['/', '/shop', '/ingredients', '/how-it-works', '/journal', '/sustainability', '/about', '/support'] as const;

export const LEGAL_PAGE_SLUGS = ['shipping', 'returns', 'privacy', 'terms'] as const;
export type LegalPageSlug = (typeof LEGAL_PAGE_SLUGS)[number];

/** Date the current policy texts took effect (ISO; shown as "Last updated", and their sitemap lastmod). */
export const LEGAL_LAST_UPDATED = '2025-01-15';

/** Where crawlers are asked not to go: the back office, checkout and a shopper's own pages, the API. */
export const ROBOTS_DISALLOW = ['/admin', '/checkout', '/api/', '/account', '/orders', '/subscriptions', '/unsubscribe'] as const;

/** Inside a disallowed path, what crawlers may still fetch: the catalogue's pictures (link previews show them). */
export const ROBOTS_ALLOW = ['/api/public/', '/uploads/'] as const;

/** How the storefront names each page of the catalogue and the journal. */
export const sitePaths = {
  product: (slug: string) => `/product/${slug}`,
  category: (slug: string) => `/shop/${slug}`,
  article: (slug: string) => `/journal/${slug}`,
  legal: (slug: string) => `/legal/${slug}`,
};

/**
 * Every path the storefront's router knows (web/src/app/router.tsx; a test keeps the two in step). The
 * server answers any other path with the not-found screen and HTTP 404, and so it does for a product,
 * category, article or legal page that does not exist.
 */
export const SPA_ROUTES = [
  '/',
  '/shop',
  '/products',
  '/shop/:categorySlug',
  '/category/:categorySlug',
  '/product/:slug',
  '/ingredients',
  '/how-it-works',
  '/journal',
  '/journal/:slug',
  '/sustainability',
  '/impact',
  '/about',
  '/support',
  '/legal/:page',
  '/unsubscribe/:token',
  '/checkout',
  '/checkout/complete/:orderId',
  '/subscriptions',
  '/subscriptions/update-card/:token',
  '/email-actions/:token',
  '/account/orders',
  '/account/orders/:id',
  '/account/forgot-password',
  '/account/reset-password',
  '/account/confirm-email/:token',
  '/orders/lookup',
  '/orders/view',
  '/admin',
  '/admin/promos',
  '/admin-products',
  '/admin-products/create',
  '/admin-products/:slug/edit',
  '/admin-orders',
  '/admin-orders/:id',
  '/admin/subscriptions',
  '/admin/subscriptions/:id',
  '/admin/customers',
  '/admin/customers/:id',
  '/admin/claims',
  '/admin/reviews',
  '/admin/staff',
  '/admin/audit',
  '/admin/reports/cancellations',
  '/admin/invite',
  '/admin/forgot-password',
  '/admin/reset-password',
] as const;
