/**
 * What Lighthouse checks on the storefront (issue 13, `npm run bench:lighthouse`), held in place in real
 * Chromium against the built SPA and the real API: a guest's pages load without a console error or a
 * Content-Security-Policy violation (zod's JIT probe is off), tap targets and contrast, link text, the
 * largest picture fetched first, and no layout shift while a page loads.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@nh/shared';
import { startE2eApp, type E2eApp } from './support/app';
import { poll, seedLocalStorage } from './support/page-helpers';
import { createE2eProduct, newPageWithCart, type E2eProduct } from './support/shop';

/** Lighthouse's mobile screen. */
const PHONE = { width: 412, height: 823 };

let app: E2eApp;
let product: E2eProduct;

beforeAll(async () => {
  app = await startE2eApp();
  product = await createE2eProduct(app, 'Page Quality Cleaner');
  // A compare-at price, so its contrast is checked too.
  await app.api.ctx.db.$client.query(`update products set compare_at_price = '25.00' where id = $1`, [product.id]);
});
afterAll(() => app?.close());

interface PageWatch {
  consoleErrors: string[];
  cspViolations: () => Promise<string[]>;
  layoutShift: () => Promise<number>;
}

/**
 * Records, from the first script of every document on: console errors and uncaught exceptions,
 * `securitypolicyviolation` events, and the layout shifts not caused by input (CLS, summed).
 */
async function watch(page: Page): Promise<PageWatch> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[]; __cls: number };
    w.__csp = [];
    w.__cls = 0;
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return {
    consoleErrors,
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
    layoutShift: () => page.evaluate(() => (window as unknown as { __cls: number }).__cls),
  };
}

const GUEST_PAGES: { path: () => string; ready: (page: Page) => Promise<unknown>; cart?: boolean }[] = [
  { path: () => '/', ready: (page) => page.getByRole('heading', { level: 1, name: "Clean that's safe for your family and the planet" }).waitFor() },
  { path: () => '/shop', ready: (page) => page.getByTestId('product-card').first().waitFor() },
  { path: () => `/product/${product.slug}`, ready: (page) => page.getByRole('heading', { level: 1, name: product.name }).waitFor() },
  { path: () => '/journal', ready: (page) => page.locator('article').first().waitFor() },
  { path: () => '/checkout', ready: (page) => page.getByTestId('sandbox-alert').waitFor(), cart: true },
];

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** Every finding (any impact) of the named axe-core rules on the current page, as "rule: selector" lines. */
async function axeFindings(page: Page, rules: string[]): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async (ruleIds) => {
    type Result = { violations: { id: string; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: unknown) => Promise<Result> } }).axe;
    const { violations } = await axe.run(document, { runOnly: { type: 'rule', values: ruleIds } });
    return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${JSON.stringify(node.target)}`));
  }, rules);
}

describe('a guest on the storefront (what Lighthouse checks)', () => {
  it('loads home, shop, a product, the journal and the checkout with no console error and no CSP violation; the user call answers 200 null', async () => {
    for (const target of GUEST_PAGES) {
      const page = target.cart ? await newPageWithCart(app, product, 1) : await app.newPage({ viewport: PHONE });
      const seen = await watch(page);
      const userCall = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/user');
      await page.goto(target.path());
      await target.ready(page);
      const answer = await userCall;
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toBeNull();
      await page.waitForLoadState('networkidle');
      expect(await seen.cspViolations(), target.path()).toEqual([]);
      expect(seen.consoleErrors, target.path()).toEqual([]);
    }
  });

  it('offers a guest Log In in the account menu', async () => {
    const page = await app.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Account menu' }).click();
    const login = page.getByRole('menuitem', { name: 'Log In' });
    await login.waitFor();
    expect(await login.getAttribute('href')).toBe('/api/login');
  });

  it('passes contrast, target size, heading order, list and link-name rules on a phone (product, home, checkout)', async () => {
    const rules = ['color-contrast', 'target-size', 'heading-order', 'definition-list', 'dlitem', 'list', 'listitem', 'link-name', 'image-alt'];
    const page = await newPageWithCart(app, product, 1);
    await page.setViewportSize(PHONE);
    await page.goto(`/product/${product.slug}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    expect(await page.getByText('$25.00').isVisible()).toBe(true);
    expect(await axeFindings(page, rules)).toEqual([]);

    await page.goto('/');
    await page.getByRole('heading', { level: 2, name: 'Shop by Category' }).waitFor();
    expect(await axeFindings(page, rules)).toEqual([]);

    await page.goto('/checkout');
    await page.getByTestId('sandbox-alert').waitFor();
    expect(await axeFindings(page, rules)).toEqual([]);
  });

  it('gives every footer link a target of at least 24 by 24 px on a phone', async () => {
    const page = await app.newPage({ viewport: PHONE });
    await seedLocalStorage(page, { [STORAGE_KEYS.emailPopupDismissed]: 'dismissed' });
    await page.goto('/');
    await page.locator('footer a').first().waitFor();
    const boxes = await page.locator('footer a').evaluateAll((links) =>
      links.map((a) => {
        const r = a.getBoundingClientRect();
        return { link: a.getAttribute('aria-label') ?? a.textContent, width: Math.round(r.width), height: Math.round(r.height) };
      }),
    );
    expect(boxes.length).toBeGreaterThan(20);
    expect(boxes.filter((b) => b.width < 24 || b.height < 24)).toEqual([]);
  });

  it('says where a link goes: no bare "learn more" on the home page', async () => {
    const page = await app.newPage();
    await page.goto('/');
    const impact = page.getByRole('link', { name: 'learn more about our impact' });
    await impact.waitFor();
    expect(await impact.getAttribute('href')).toBe('/impact');
    const texts = await page.locator('a').evaluateAll((links) => links.map((a) => (a as HTMLElement).innerText.trim().toLowerCase()));
    expect(texts.filter((t) => ['learn more', 'click here', 'here', 'more', 'read more'].includes(t))).toEqual([]);
  });

  it('fetches the largest picture first (eager, high priority, sized): the product picture and the first journal card', async () => {
    const page = await app.newPage({ viewport: PHONE });
    await page.goto(`/product/${product.slug}`);
    const main = page.getByTestId('product-main-image');
    await main.waitFor();
    expect(await main.evaluate((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority'), img.getAttribute('width'), img.getAttribute('height')])).toEqual([
      'eager',
      'high',
      '600',
      '600',
    ]);

    await page.goto('/journal');
    await page.locator('article img').first().waitFor();
    const images = await page.locator('article img').evaluateAll((imgs) => imgs.map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')]));
    expect(images[0]).toEqual(['eager', 'high']);
    expect(images.slice(1).every(([loading]) => loading === 'lazy')).toBe(true);
  });

  it('does not shift the layout while the product page and the checkout load on a phone', async () => {
    const page = await app.newPage({ viewport: PHONE });
    const seen = await watch(page);
    await seedLocalStorage(page, { [STORAGE_KEYS.emailPopupDismissed]: 'dismissed' });
    await page.goto(`/product/${product.slug}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    await page.waitForLoadState('networkidle');
    await poll(() => page.getByTestId('product-main-image').evaluate((img) => (img as HTMLImageElement).complete)).toBe(true);
    expect(await seen.layoutShift()).toBeLessThan(0.01);

    const checkout = await newPageWithCart(app, product, 1);
    await checkout.setViewportSize(PHONE);
    const atCheckout = await watch(checkout);
    await checkout.goto('/checkout');
    await checkout.getByTestId('sandbox-alert').waitFor();
    await checkout.waitForLoadState('networkidle');
    expect(await atCheckout.layoutShift()).toBeLessThan(0.01);
  });
});

describe('server-rendered pages (issue 13): content in the HTML, hydrated without an error or a second call', () => {
  /** The public data calls a page makes: what the server already put into the page. */
  const DATA_CALL = /^\/api\/(products|categories|blog|impact|ingredients)(\/|$)/;
  let tag: string;
  let categorySlug: string;

  beforeAll(async () => {
    tag = product.slug.split('-').pop()!;
    categorySlug = `hydrate-cat-${tag}`;
    const [category] = await app.api.ctx.db.$client.query<{ id: number }>(`insert into categories (name, slug) values ($1, $2) returning id`, [`Hydrate ${tag}`, categorySlug]).then((r) => r.rows);
    await app.api.ctx.db.$client.query(`update products set category_id = $1 where id = $2`, [category!.id, product.id]);
    await app.api.ctx.db.$client.query(`insert into blog_posts (title, slug, content, excerpt, published, created_at) values ($1, $2, $3, $4, true, '2025-03-04T01:00:00Z')`, [
      `Hydrated article ${tag}`,
      `hydrate-post-${tag}`,
      'Probiotic cleaners keep working after you wipe.',
      'Why it works.',
    ]);
  });

  it('arrives with its content, hydrates with no console error or warning, and asks the API for none of the data it carries', async () => {
    const pages: Array<[string, string]> = [
      ['/', "Clean that's safe for your family and the planet"],
      ['/shop', product.name],
      [`/product/${product.slug}`, product.name],
      [`/shop/${categorySlug}`, product.name],
      ['/journal', `Hydrated article ${tag}`],
      [`/journal/hydrate-post-${tag}`, 'Probiotic cleaners keep working after you wipe.'],
      ['/ingredients', 'Ingredients'],
      ['/sustainability', 'Impact'],
      ['/about', 'About'],
      ['/how-it-works', 'How'],
      ['/support', 'Support'],
      ['/legal/privacy', 'Privacy'],
      ['/product/no-such-product', 'Product Not Found'],
    ];
    for (const [path, text] of pages) {
      const notFound = path.includes('no-such');
      // A cart in local storage: the header's count appears after hydration, not as a mismatch.
      const page = await newPageWithCart(app, product, 2);
      const problems: string[] = [];
      page.on('console', (message) => {
        // A not-found page is itself a 404 document, which Chromium reports as a failed load.
        if (notFound && message.text().includes('status of 404')) return;
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
      const dataCalls: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (DATA_CALL.test(url.pathname)) dataCalls.push(url.pathname);
      });
      const userCall = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/user');
      const response = await page.goto(path);
      expect(response!.status(), path).toBe(notFound ? 404 : 200);
      const html = await response!.text();
      // The HTML itself has the page (no JavaScript needed to read it).
      const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('id="server-state"'));
      expect(root, path).toContain(text.replace(/'/g, '&#x27;'));
      // The user call is made by the hydrated app (an effect): hydration is done when it answers.
      await userCall;
      await page.waitForLoadState('networkidle');
      expect(problems, path).toEqual([]);
      expect(dataCalls, path).toEqual([]);
      await page.getByText(text).first().waitFor();
      // The saved cart is read once hydrated.
      await poll(() => page.getByTestId('cart-count').textContent()).toBe('2');
      await page.context().close();
    }
  });

  it('navigates in the browser after hydration (the routes and their loaders work client-side)', async () => {
    const page = await app.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto('/journal');
    await page.getByRole('link', { name: new RegExp(`Hydrated article ${tag}`) }).first().click();
    await page.getByRole('heading', { level: 1, name: `Hydrated article ${tag}` }).waitFor();
    await page.goto(`/product/${product.slug}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    await page.getByRole('link', { name: 'Shop', exact: true }).first().click();
    await page.getByTestId('product-card').first().waitFor();
    expect(problems).toEqual([]);
  });
});
