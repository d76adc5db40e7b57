/**
 * robots.txt and sitemap.xml (issue 13): what crawlers may fetch, and every public page with its last change.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { CONTENT_PAGE_PATHS, LEGAL_LAST_UPDATED, LEGAL_PAGE_SLUGS, SPA_ROUTES } from '@nh/shared/contracts/site-map';
import { REPO_ROOT } from '../src/lib/config';
import { startTestApi, type TestApi } from './support/harness';
import { oneYearAhead } from '../src/modules/seo/structured-data';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

/** The sitemap's entries: loc → lastmod (null when absent). */
async function siteMap(from: TestApi): Promise<Map<string, string | null>> {
  const res = await from.request('/sitemap.xml');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  const xml = await res.text();
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
  return new Map([...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/url>/g)].map((m) => [m[1]!, m[2] ?? null]));
}

describe('robots.txt', () => {
  it("keeps crawlers out of the back office, checkout, shoppers' own pages and the API, lets them fetch the pictures, and names the sitemap", async () => {
    const res = await api.request('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await res.text()).split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/admin', '/checkout', '/api/', '/account', '/orders', '/subscriptions'])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain('Allow: /api/public/');
    expect(lines).not.toContain('Disallow: /');
    expect(lines).toContain(`Sitemap: ${api.url}/sitemap.xml`);
  });

  it("names the shop's own address when SHOP_SITE_URL is set", async () => {
    const site = await startTestApi({ SHOP_SITE_URL: 'https://www.nurturehome.example' });
    try {
      expect(await (await site.request('/robots.txt')).text()).toContain('Sitemap: https://www.nurturehome.example/sitemap.xml');
      const entries = await siteMap(site);
      expect(entries.has('https://www.nurturehome.example/shop')).toBe(true);
    } finally {
      await site.close();
    }
  });
});

describe('sitemap.xml', () => {
  it('lists public products, categories and published articles with their last change; not hidden ones', async () => {
    const tag = randomUUID().slice(0, 8);
    const [category] = await api.ctx.db
      .insert(tables.categories)
      .values({ name: `Sitemap ${tag}`, slug: `sitemap-cat-${tag}` })
      .returning();
    const changed = new Date('2026-03-04T05:06:07.000Z');
    await api.ctx.db.insert(tables.products).values({
      name: `Sitemap shown ${tag}`,
      slug: `sitemap-shown-${tag}`,
      price: 999,
      categoryId: category!.id,
      status: 'active',
      updatedAt: changed,
    });
    await api.ctx.db
      .insert(tables.products)
      .values({ name: `Sitemap hidden ${tag}`, slug: `sitemap-hidden-${tag}`, price: 999, categoryId: category!.id, status: 'inactive' });
    await api.ctx.db
      .insert(tables.blogPosts)
      .values({ title: `Published ${tag}`, slug: `sitemap-post-${tag}`, content: 'x', published: true, updatedAt: changed });
    await api.ctx.db
      .insert(tables.blogPosts)
      .values({ title: `Draft ${tag}`, slug: `sitemap-draft-${tag}`, content: 'x', published: false });
    try {
      const entries = await siteMap(api);
      const at = (path: string) => entries.get(`${api.url}${path}`);
      expect(at(`/product/sitemap-shown-${tag}`)).toBe(changed.toISOString());
      expect(entries.has(`${api.url}/product/sitemap-hidden-${tag}`)).toBe(false);
      // A category changes when one of its public products does (the inactive one does not count).
      expect(at(`/shop/sitemap-cat-${tag}`)).toBe(changed.toISOString());
      expect(at(`/journal/sitemap-post-${tag}`)).toBe(changed.toISOString());
      expect(entries.has(`${api.url}/journal/sitemap-draft-${tag}`)).toBe(false);
      for (const path of CONTENT_PAGE_PATHS) expect(entries.has(`${api.url}${path}`), path).toBe(true);
      for (const slug of LEGAL_PAGE_SLUGS) expect(at(`/legal/${slug}`)).toBe(`${LEGAL_LAST_UPDATED}T00:00:00.000Z`);
      // The shop and home pages change with the catalogue: their lastmod is at least the newest product's.
      expect(new Date(at('/shop')!).getTime()).toBeGreaterThanOrEqual(changed.getTime());
      // One URL per page: no aliases, no admin or checkout pages.
      for (const loc of entries.keys()) expect(loc).not.toMatch(/\/(products|impact|admin|checkout|category)(\/|$)/);
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.categoryId, category!.id));
      await api.ctx.db.delete(tables.categories).where(eq(tables.categories.id, category!.id));
      await api.ctx.db.delete(tables.blogPosts).where(eq(tables.blogPosts.slug, `sitemap-post-${tag}`));
      await api.ctx.db.delete(tables.blogPosts).where(eq(tables.blogPosts.slug, `sitemap-draft-${tag}`));
    }
  });
});

describe('a page that does not exist answers 404 (the SPA shows its not-found screen either way)', () => {
  const page = (p: string) => api.request(p, { headers: { accept: 'text/html' } });

  it('unknown product, category, article, legal page and route: 404 with the app; known ones 200', async () => {
    const tag = randomUUID().slice(0, 8);
    const [category] = await api.ctx.db
      .insert(tables.categories)
      .values({ name: `Status ${tag}`, slug: `status-cat-${tag}` })
      .returning();
    await api.ctx.db
      .insert(tables.products)
      .values({ name: `Status ${tag}`, slug: `status-${tag}`, price: 999, categoryId: category!.id, status: 'active' });
    await api.ctx.db
      .insert(tables.products)
      .values({ name: `Retired ${tag}`, slug: `status-retired-${tag}`, price: 999, categoryId: category!.id, status: 'inactive' });
    await api.ctx.db.insert(tables.blogPosts).values({ title: `Status ${tag}`, slug: `status-post-${tag}`, content: 'x', published: true });
    await api.ctx.db
      .insert(tables.blogPosts)
      .values({ title: `Draft ${tag}`, slug: `status-draft-${tag}`, content: 'x', published: false });
    try {
      const expectations: Array<[string, number]> = [
        ['/', 200],
        ['/shop', 200],
        [`/product/status-${tag}`, 200],
        [`/product/status-${tag}/`, 200],
        [`/product/status-retired-${tag}`, 404],
        ['/product/no-such-product', 404],
        ['/product/NOT%20A%20SLUG', 404],
        [`/shop/status-cat-${tag}`, 200],
        [`/category/status-cat-${tag}`, 200],
        ['/shop/no-such-category', 404],
        [`/journal/status-post-${tag}`, 200],
        [`/journal/status-draft-${tag}`, 404],
        ['/journal/no-such-article', 404],
        ['/legal/privacy', 200],
        ['/legal/no-such-policy', 404],
        ['/no/such/route', 404],
        ['/account/orders', 200],
        ['/admin-products/anything/edit', 200],
      ];
      for (const [p, status] of expectations) {
        const res = await page(p);
        expect(res.status, p).toBe(status);
        // The app either way: rendered into the root (public pages, ssr.test.ts) or the empty root it fills in.
        expect(await res.text(), p).toContain('<div id="root">');
      }
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.categoryId, category!.id));
      await api.ctx.db.delete(tables.categories).where(eq(tables.categories.id, category!.id));
      for (const slug of [`status-post-${tag}`, `status-draft-${tag}`])
        await api.ctx.db.delete(tables.blogPosts).where(eq(tables.blogPosts.slug, slug));
    }
  });

  it("the server knows exactly the routes the storefront's router has", () => {
    // The storefront's routes are in the router; the back office's in its screen list, which the router
    // maps (but for a screen the server draws, `screen: 'server'`, the queue board).
    const lines = ['web/src/app/router.tsx', 'web/src/features/admin/screens.tsx'].flatMap((file) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n'));
    const paths = lines.filter((line) => !line.includes("screen: 'server'")).flatMap((line) => [...line.matchAll(/path: '([^']+)'/g)].map((m) => m[1])).filter((p) => p !== '*');
    expect([...paths].sort()).toEqual([...SPA_ROUTES].sort());
  });
});

describe("a page's head is there without JavaScript (crawlers, link previews)", () => {
  const html = async (p: string) => (await api.request(p, { headers: { accept: 'text/html' } })).text();
  const attr = (doc: string, selector: RegExp) => selector.exec(doc)?.[1];

  it('a product: its name, description, canonical URL, picture and price, escaped', async () => {
    const tag = randomUUID().slice(0, 8);
    const name = `Surfy "Sparkle" <${tag}> & Co`;
    await api.ctx.db.insert(tables.products).values({
      name,
      slug: `head-${tag}`,
      price: 1299,
      status: 'active',
      shortDescription: 'Streak-free on every surface.',
      images: ['surfy-surface'],
    });
    try {
      const doc = await html(`/product/head-${tag}`);
      const escaped = `Surfy &quot;Sparkle&quot; &lt;${tag}&gt; &amp; Co`;
      expect(doc).toContain(`<title>${escaped} | Nurture Home</title>`);
      expect(doc).toContain('<meta name="description" content="Streak-free on every surface." />');
      expect(attr(doc, /<link rel="canonical" href="([^"]+)"/)).toBe(`${api.url}/product/head-${tag}`);
      expect(attr(doc, /<meta property="og:type" content="([^"]+)"/)).toBe('product');
      expect(attr(doc, /<meta property="og:title" content="([^"]+)"/)).toBe(`${escaped} | Nurture Home`);
      expect(attr(doc, /<meta property="og:image" content="([^"]+)"/)).toBe(`${api.url}/api/public/surfy-surface.svg`);
      expect(attr(doc, /<meta property="product:price:amount" content="([^"]+)"/)).toBe('12.99');
      expect(attr(doc, /<meta property="product:price:currency" content="([^"]+)"/)).toBe('USD');
      expect(attr(doc, /<meta name="twitter:card" content="([^"]+)"/)).toBe('summary_large_image');
      // The main picture (what the gallery shows first) is preloaded with priority.
      expect(doc).toContain('<link rel="preload" as="image" href="/api/public/surfy-surface.svg" fetchpriority="high" />');
      expect(doc).not.toContain('name="robots"');
      // One title and one description: the page's replace the shop's.
      expect(doc.match(/<title>/g)).toHaveLength(1);
      expect(doc.match(/<meta name="description"/g)).toHaveLength(1);
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.slug, `head-${tag}`));
    }
  });

  it('an article and a category name themselves; an alias names the one URL; checkout and unknown pages are not indexed', async () => {
    const tag = randomUUID().slice(0, 8);
    await api.ctx.db
      .insert(tables.blogPosts)
      .values({ title: `Head ${tag}`, slug: `head-post-${tag}`, content: 'x', excerpt: 'Why probiotics clean deeper.', published: true });
    const [category] = await api.ctx.db
      .insert(tables.categories)
      .values({ name: `Kitchen ${tag}`, slug: `head-cat-${tag}`, description: 'Everything for the kitchen.' })
      .returning();
    try {
      const article = await html(`/journal/head-post-${tag}`);
      expect(article).toContain(`<title>Head ${tag} | Nurture Home</title>`);
      expect(attr(article, /<meta property="og:type" content="([^"]+)"/)).toBe('article');
      expect(article).toContain('<meta name="description" content="Why probiotics clean deeper." />');
      const viaAlias = await html(`/category/head-cat-${tag}`);
      expect(viaAlias).toContain(`<title>Kitchen ${tag} | Nurture Home</title>`);
      expect(attr(viaAlias, /<link rel="canonical" href="([^"]+)"/)).toBe(`${api.url}/shop/head-cat-${tag}`);
      expect(attr(await html('/products'), /<link rel="canonical" href="([^"]+)"/)).toBe(`${api.url}/shop`);
      expect(await html('/checkout')).toContain('<meta name="robots" content="noindex" />');
      const missing = await html('/product/no-such-thing');
      expect(missing).toContain('<meta name="robots" content="noindex" />');
      expect(missing).toContain('<title>Page not found | Nurture Home</title>');
    } finally {
      await api.ctx.db.delete(tables.blogPosts).where(eq(tables.blogPosts.slug, `head-post-${tag}`));
      await api.ctx.db.delete(tables.categories).where(eq(tables.categories.id, category!.id));
    }
  });
});

describe("structured data (JSON-LD) in the page's head", () => {
  type Ld = Record<string, unknown> & { '@type': string };
  const jsonLdOf = async (p: string): Promise<Ld[]> => {
    const doc = await (await api.request(p, { headers: { accept: 'text/html' } })).text();
    const head = doc.slice(0, doc.indexOf('</head>'));
    return [...head.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Ld);
  };

  it('a product: Product with its Offer (lowest variant price, USD, a year) and AggregateRating of visible reviews; BreadcrumbList', async () => {
    expect(oneYearAhead(new Date('2024-02-29T12:00:00Z'))).toBe('2025-03-01');
    const tag = randomUUID().slice(0, 8);
    const [category] = await api.ctx.db
      .insert(tables.categories)
      .values({ name: `Laundry ${tag}`, slug: `ld-cat-${tag}` })
      .returning();
    const [product] = await api.ctx.db
      .insert(tables.products)
      .values({
        name: `Washy ${tag}`,
        slug: `ld-${tag}`,
        price: 1699,
        status: 'active',
        inventory: 5,
        categoryId: category!.id,
        sku: `LD-${tag}`,
        images: ['laundry-pods'],
        variants: [
          { label: '64 loads', price: '29.99', sku: `LD-${tag}-64` },
          { label: '32 loads', price: '16.99', sku: `LD-${tag}-32` },
        ],
      })
      .returning();
    const review = { productId: product!.id, customerName: 'A', customerEmail: 'a@example.com', comment: 'Good.' };
    await api.ctx.db.insert(tables.reviews).values([
      { ...review, rating: 5 },
      { ...review, rating: 4 },
      { ...review, rating: 1, hiddenAt: new Date() },
    ]);
    try {
      const blocks = await jsonLdOf(`/product/ld-${tag}`);
      const ld = blocks.find((b) => b['@type'] === 'Product')!;
      expect(ld).toMatchObject({
        '@context': 'https://schema.org',
        name: `Washy ${tag}`,
        sku: `LD-${tag}`,
        category: `Laundry ${tag}`,
        url: `${api.url}/product/ld-${tag}`,
        image: [`${api.url}/api/public/laundry-pods.svg`],
        brand: { '@type': 'Brand', name: 'Nurture Home' },
        offers: {
          '@type': 'Offer',
          price: '16.99',
          priceCurrency: 'USD',
          priceValidUntil: oneYearAhead(new Date()),
          availability: 'https://schema.org/InStock',
        },
        aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2 },
      });
      const crumbs = blocks.find((b) => b['@type'] === 'BreadcrumbList')!;
      expect(
        (crumbs.itemListElement as Array<{ name: string; item: string; position: number }>).map((c) => [c.position, c.name, c.item]),
      ).toEqual([
        [1, 'Home', `${api.url}/`],
        [2, 'Shop', `${api.url}/shop`],
        [3, `Laundry ${tag}`, `${api.url}/shop/ld-cat-${tag}`],
        [4, `Washy ${tag}`, `${api.url}/product/ld-${tag}`],
      ]);
      // No visible review: no rating at all, never a made-up one (issue 19).
      await api.ctx.db.update(tables.reviews).set({ hiddenAt: new Date() }).where(eq(tables.reviews.productId, product!.id));
      const unrated = (await jsonLdOf(`/product/ld-${tag}`)).find((b) => b['@type'] === 'Product')!;
      expect(unrated.name).toBe(`Washy ${tag}`);
      expect(unrated).not.toHaveProperty('aggregateRating');
    } finally {
      await api.ctx.db.delete(tables.products).where(eq(tables.products.id, product!.id));
      await api.ctx.db.delete(tables.categories).where(eq(tables.categories.id, category!.id));
    }
  });

  it('an article: Article and its breadcrumbs; the home page: Organization; text cannot close the script element', async () => {
    const tag = randomUUID().slice(0, 8);
    await api.ctx.db.insert(tables.blogPosts).values({
      title: `Why </script> ${tag}`,
      slug: `ld-post-${tag}`,
      content: 'x',
      excerpt: 'Cleaner homes.',
      author: 'Dana',
      published: true,
    });
    try {
      const blocks = await jsonLdOf(`/journal/ld-post-${tag}`);
      expect(blocks.find((b) => b['@type'] === 'Article')).toMatchObject({
        headline: `Why </script> ${tag}`,
        description: 'Cleaner homes.',
        url: `${api.url}/journal/ld-post-${tag}`,
        author: { '@type': 'Person', name: 'Dana' },
        publisher: { '@type': 'Organization', name: 'Nurture Home' },
      });
      expect(blocks.find((b) => b['@type'] === 'BreadcrumbList')).toBeDefined();
      const home = await jsonLdOf('/');
      expect(home).toEqual([expect.objectContaining({ '@type': 'Organization', name: 'Nurture Home', url: `${api.url}/` })]);
      expect(await jsonLdOf('/checkout')).toEqual([]);
    } finally {
      await api.ctx.db.delete(tables.blogPosts).where(eq(tables.blogPosts.slug, `ld-post-${tag}`));
    }
  });
});

describe("absolute URLs name the shop's own address, whatever the request says (issue 19)", () => {
  /** GET with headers fetch will not send (Host) and a raw request target (`//evil.example/x`). */
  const raw = (target: TestApi, requestTarget: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(target.url);
      const req = http.request({ host: hostname, port, path: requestTarget, headers: { accept: 'text/html', ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
  const canonicalOf = (doc: string) => /<link rel="canonical" href="([^"]+)"/.exec(doc)?.[1];
  const ogUrlOf = (doc: string) => /<meta property="og:url" content="([^"]+)"/.exec(doc)?.[1];
  const hostile = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  it('canonical, og:url, JSON-LD, robots.txt and the sitemap never follow the Host header (nor X-Forwarded-Host behind a proxy)', async () => {
    const site = await startTestApi({ SHOP_SITE_URL: 'https://www.nurturehome.example' });
    // Without SHOP_SITE_URL (development, tests): the address the connection reached, not the header.
    const proxied = await startTestApi({ TRUST_PROXY: 'true' });
    try {
      for (const [target, origin] of [
        [site, 'https://www.nurturehome.example'],
        [proxied, proxied.url],
        [api, api.url],
      ] as const) {
        const home = await raw(target, '/', hostile);
        expect(home.status).toBe(200);
        expect(canonicalOf(home.body)).toBe(`${origin}/`);
        expect(ogUrlOf(home.body)).toBe(`${origin}/`);
        expect(home.body).toContain(`"url":"${origin}/"`);
        const robots = await raw(target, '/robots.txt', hostile);
        expect(robots.body).toContain(`Sitemap: ${origin}/sitemap.xml`);
        const sitemap = await raw(target, '/sitemap.xml', hostile);
        expect(sitemap.body).toContain(`<loc>${origin}/shop</loc>`);
        for (const answer of [home, robots, sitemap]) expect(answer.body).not.toContain('evil.example');
      }
    } finally {
      await site.close();
      await proxied.close();
    }
  });

  it('a path like //evil.example/x never yields a canonical on another host', async () => {
    for (const target of ['//evil.example/x', '///evil.example/x', '/\\evil.example/x', '//evil.example']) {
      const answer = await raw(api, target, {});
      expect(answer.status, target).toBe(404);
      expect(canonicalOf(answer.body), target).toBe(`${api.url}/evil.example${target.endsWith('/x') ? '/x' : ''}`);
      expect(ogUrlOf(answer.body), target).toBe(canonicalOf(answer.body));
    }
  });
});
