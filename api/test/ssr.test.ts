/**
 * Server-rendered storefront (issue 13): public pages arrive with their body rendered by React, the data
 * the browser needs handed over in a JSON data block, unknown slugs 404 with the not-found screen.
 * Needs the web build (`npm run build`: web/dist and web/dist-server).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { entryServerPath } from '../src/modules/seo/server-render';
import { startTestApi, type TestApi } from './support/harness';
import { captureLog } from './support/log-capture';

let api: TestApi;
const tag = randomUUID().slice(0, 8);
const slugs = {
  product: `ssr-${tag}`,
  category: `ssr-cat-${tag}`,
  article: `ssr-post-${tag}`,
  tricky: `ssr-tricky-${tag}`,
  kit: `ssr-kit-${tag}`,
};
const productName = `Surfy SSR ${tag}`;
const trickyName = `Evil </script><script>alert(1)</script> ${tag}`;

beforeAll(async () => {
  api = await startTestApi();
  expect(fs.existsSync(entryServerPath(api.ctx.config.WEB_DIST)), 'run `npm run build` first (web/dist-server)').toBe(true);
  const [category] = await api.ctx.db
    .insert(tables.categories)
    .values({ name: `Kitchen ${tag}`, slug: slugs.category, description: 'Everything for the kitchen.' })
    .returning();
  await api.ctx.db.insert(tables.products).values([
    {
      name: productName,
      slug: slugs.product,
      price: 1299,
      status: 'active',
      inventory: 10,
      categoryId: category!.id,
      shortDescription: 'Streak-free on every surface.',
      images: ['surfy-surface'],
    },
    { name: trickyName, slug: slugs.tricky, price: 500, status: 'active', inventory: 10, categoryId: category!.id },
    { name: `Kit ${tag}`, slug: slugs.kit, price: 3999, status: 'active', inventory: 10, isStarterKit: true, kitContents: [slugs.product] },
  ]);
  await api.ctx.db.insert(tables.blogPosts).values({
    title: `Why probiotics ${tag}`,
    slug: slugs.article,
    excerpt: 'They keep working after you wipe.',
    content: `Probiotic cleaners keep breaking down grime ${tag} long after you clean.`,
    published: true,
  });
});

afterAll(async () => {
  if (!api) return;
  await api.ctx.db.delete(tables.products).where(eq(tables.products.slug, slugs.product));
  await api.ctx.db.delete(tables.products).where(eq(tables.products.slug, slugs.tricky));
  await api.ctx.db.delete(tables.products).where(eq(tables.products.slug, slugs.kit));
  await api.ctx.db.delete(tables.categories).where(eq(tables.categories.slug, slugs.category));
  await api.ctx.db.delete(tables.blogPosts).where(eq(tables.blogPosts.slug, slugs.article));
  await api.close();
});

interface Page {
  status: number;
  head: string;
  /** The root element's markup. */
  body: string;
  /** The server state data block, parsed. */
  state: {
    queries: { queries: Array<{ queryKey: unknown[]; state: { status: string; data?: unknown } }> };
    router: { loaderData: Record<string, unknown> };
  };
}

/** A page as a client without JavaScript gets it. */
async function page(path: string): Promise<Page> {
  const res = await api.request(path, { headers: { accept: 'text/html' } });
  const html = await res.text();
  const head = html.slice(0, html.indexOf('</head>'));
  const body = /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="server-state">/.exec(html)?.[1] ?? '';
  const stateText = /<script type="application\/json" id="server-state">([^<]*)<\/script>/.exec(html)?.[1];
  expect(stateText, `${path}: the server state block`).toBeDefined();
  return { status: res.status, head, body, state: JSON.parse(stateText!) as Page['state'] };
}

/** The page's module script tags (the app's entry). */
const entryScripts = (html: string) => [...html.matchAll(/<script type="module"[^>]*>/g)].map((m) => m[0]);

/** Text of markup (tags dropped, entities of the kinds React writes decoded), for "what a reader sees". */
const textOf = (markup: string) =>
  markup
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('public pages arrive rendered, with their data', () => {
  it('a product page: its name, price as on screen, og:image and JSON-LD; the cache holds the product', async () => {
    const p = await page(`/product/${slugs.product}`);
    expect(p.status).toBe(200);
    const text = textOf(p.body);
    expect(text).toContain(productName);
    expect(text).toContain('$12.99');
    expect(text).toContain('Streak-free on every surface.');
    expect(p.head).toMatch(/<meta property="og:image" content="[^"]+\/api\/public\/surfy-surface\.svg" \/>/);
    const ld = [...p.head.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as { '@type': string; name?: string },
    );
    expect(ld.find((block) => block['@type'] === 'Product')?.name).toBe(productName);
    const product = p.state.queries.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(['/api/products', slugs.product]));
    expect(product?.state.status).toBe('success');
    expect((product?.state.data as { name: string }).name).toBe(productName);
  });

  it('a product page hands over its related products, not the whole catalogue (a starter kit also the catalogue, for its contents)', async () => {
    const key = (q: { queryKey: unknown[] }) => JSON.stringify(q.queryKey);
    const p = await page(`/product/${slugs.product}`);
    // Same category first (storefront §2): the other product of its category, rendered in the HTML.
    expect(textOf(p.body)).toContain('You May Also Like');
    expect(textOf(p.body)).toContain(trickyName);
    const related = p.state.queries.queries.find((q) => key(q) === JSON.stringify(['related-products', slugs.product]));
    const relatedData = related?.state.data as Array<{ slug: string }>;
    expect(relatedData[0]?.slug).toBe(slugs.tricky);
    expect(relatedData.length).toBeLessThanOrEqual(4);
    expect(p.state.queries.queries.map(key)).not.toContain(JSON.stringify(['/api/products']));

    const kit = await page(`/product/${slugs.kit}`);
    // "What's Included" names the kit's product from the catalogue, which is handed over for it.
    expect(textOf(kit.body)).toContain("What's Included");
    expect(textOf(kit.body)).toContain(productName);
    expect(kit.state.queries.queries.map(key)).toContain(JSON.stringify(['/api/products']));
  });

  it('a category page: its name and its products with their prices', async () => {
    for (const path of [`/shop/${slugs.category}`, `/category/${slugs.category}`]) {
      const p = await page(path);
      expect(p.status, path).toBe(200);
      const text = textOf(p.body);
      expect(text).toContain(`Kitchen ${tag}`);
      expect(text).toContain(productName);
      expect(text).toContain('$12.99');
    }
  });

  it('an article: its title and body text', async () => {
    const p = await page(`/journal/${slugs.article}`);
    expect(p.status).toBe(200);
    const text = textOf(p.body);
    expect(text).toContain(`Why probiotics ${tag}`);
    expect(text).toContain(`Probiotic cleaners keep breaking down grime ${tag} long after you clean.`);
  });

  it('home, shop, the journal, content and legal pages', async () => {
    const expectations: Array<[string, string]> = [
      ['/', 'Shop by Category'],
      ['/shop', productName],
      ['/journal', `Why probiotics ${tag}`],
      ['/ingredients', 'Ingredients'],
      ['/how-it-works', 'How'],
      ['/sustainability', 'Impact'],
      ['/about', 'About'],
      ['/support', 'Support'],
      ['/legal/privacy', 'Privacy'],
    ];
    for (const [path, shown] of expectations) {
      const p = await page(path);
      expect(p.status, path).toBe(200);
      expect(textOf(p.body), path).toContain(shown);
      // The frame is there too: the header's navigation and the footer.
      expect(p.body, path).toContain('<footer');
    }
  });

  it('unknown slugs and paths answer 404 with the not-found screen in the body', async () => {
    const expectations: Array<[string, string]> = [
      ['/product/no-such-product', 'Product Not Found'],
      ['/shop/no-such-category', 'Category Not Found'],
      ['/journal/no-such-article', 'Article Not Found'],
      ['/legal/no-such-policy', 'Not Found'],
      ['/no/such/route', 'Not Found'],
    ];
    for (const [path, shown] of expectations) {
      const p = await page(path);
      expect(p.status, path).toBe(404);
      expect(textOf(p.body), path).toContain(shown);
    }
  });

  it('a slug holding an encoded path cannot make the render call another API endpoint', async () => {
    // The router decodes %2F in a slug back to "/": without encoding, the product query would fetch
    // /api/products/../promo-codes/validate/WELCOME10 from the server's own address (the answer in the page).
    for (const path of ['/product/..%2Fpromo-codes%2Fvalidate%2FWELCOME10', '/shop/..%2Fpromo-codes%2Fvalidate%2FWELCOME10']) {
      const res = await api.request(path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html, path).not.toContain('discountType');
    }
  });

  it('the data block is valid JSON that a product named `</script>` cannot break out of', async () => {
    const p = await page(`/product/${slugs.tricky}`);
    expect(p.status).toBe(200);
    const products = p.state.queries.queries.find((q) => JSON.stringify(q.queryKey) === JSON.stringify(['/api/products', slugs.tricky]));
    expect((products?.state.data as { name: string }).name).toBe(trickyName);
    const html = await (await api.request(`/product/${slugs.tricky}`, { headers: { accept: 'text/html' } })).text();
    // Only the markup the page itself writes: the shop's own entry script, no injected one.
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html.match(/<\/script>/g)?.length).toBe(html.match(/<script/g)?.length);
  });

  it("a shopper's own pages and the back office are rendered in the browser (empty root)", async () => {
    for (const path of ['/account/orders', '/subscriptions', '/admin']) {
      const html = await (await api.request(path, { headers: { accept: 'text/html' } })).text();
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain('id="server-state"');
      // Nothing shows until the script runs: it keeps the browser's default priority.
      expect(entryScripts(html), path).toEqual([expect.not.stringContaining('fetchpriority')]);
    }
  });

  it('the checkout arrives as its frame and heading, with no form and nothing of a cart (the browser reads the cart), not indexed', async () => {
    const p = await page('/checkout');
    expect(p.status).toBe(200);
    expect(p.head).toContain('<meta name="robots" content="noindex" />');
    expect(p.body).toMatch(/<h1 [^>]*>Checkout<\/h1>/);
    expect(p.body).toContain('Shop');
    expect(p.body).not.toContain('<form');
    expect(p.body).not.toContain('Your cart is empty');
    expect(p.body).not.toContain('Place Order');
  });

  it("a rendered page's entry script is fetched at low priority (its stylesheet and pictures first), once", async () => {
    for (const path of ['/', '/shop', '/checkout', `/product/${slugs.product}`, `/journal/${slugs.article}`, '/product/no-such-product']) {
      const html = await (await api.request(path, { headers: { accept: 'text/html' } })).text();
      expect(html, path).toContain('id="server-state"');
      expect(entryScripts(html), path).toEqual([
        expect.stringMatching(/^<script type="module" fetchpriority="low" crossorigin src="\/assets\/index-[\w-]+\.js">$/),
      ]);
    }
  });
});

describe('when the server cannot render, the page goes out for the browser to render', () => {
  /** A copy of the built index.html in a folder of its own, with `entryServer` as its server render (or none). */
  function webDistWith(entryServer: string | null): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-ssr-'));
    fs.mkdirSync(path.join(root, 'dist'));
    fs.copyFileSync(path.join(api.ctx.config.WEB_DIST, 'index.html'), path.join(root, 'dist', 'index.html'));
    if (entryServer !== null) {
      fs.mkdirSync(path.join(root, 'dist-server'));
      fs.writeFileSync(path.join(root, 'dist-server', 'entry-server.js'), entryServer);
    }
    return path.join(root, 'dist');
  }

  it('no server render built (development): the empty root, the status and head as before, said once at start', async () => {
    const { lines, log } = captureLog();
    const webDist = webDistWith(null);
    const plain = await startTestApi({ WEB_DIST: webDist }, { log });
    try {
      const res = await plain.request(`/product/${slugs.product}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain(`<title>${productName} | Nurture Home</title>`);
      expect((await plain.request('/product/no-such-product', { headers: { accept: 'text/html' } })).status).toBe(404);
      expect(lines.filter((l) => l.msg === 'No server render built: pages are rendered in the browser')).toHaveLength(1);
    } finally {
      await plain.close();
      fs.rmSync(path.dirname(webDist), { recursive: true, force: true });
    }
  });

  it("a render that throws: the empty root with the page's status and head, and the error logged", async () => {
    const { lines, log } = captureLog();
    const webDist = webDistWith(`export async function render() { throw new Error('render exploded'); }\n`);
    const failing = await startTestApi({ WEB_DIST: webDist }, { log });
    try {
      const res = await failing.request(`/product/${slugs.product}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toContain(`<title>${productName} | Nurture Home</title>`);
      const logged = lines.find((l) => l.msg === 'The page could not be rendered on the server: sent for the browser to render');
      expect(logged?.path).toBe(`/product/${slugs.product}`);
      expect(JSON.stringify(logged?.err)).toContain('render exploded');
    } finally {
      await failing.close();
      fs.rmSync(path.dirname(webDist), { recursive: true, force: true });
    }
  });

  it('a render that takes longer than 3 s: the empty root, not a hung page', async () => {
    const { lines, log } = captureLog();
    const webDist = webDistWith(`export function render() { return new Promise(() => {}); }\n`);
    const slow = await startTestApi({ WEB_DIST: webDist }, { log });
    try {
      const started = Date.now();
      const res = await slow.request('/shop', { headers: { accept: 'text/html' } });
      expect(await res.text()).toContain('<div id="root"></div>');
      expect(Date.now() - started).toBeLessThan(6000);
      expect(JSON.stringify(lines.find((l) => l.path === '/shop')?.err)).toContain('longer than 3000 ms');
    } finally {
      await slow.close();
      fs.rmSync(path.dirname(webDist), { recursive: true, force: true });
    }
  });
});
