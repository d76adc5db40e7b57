/**
 * A click made while a server-rendered page hydrates is held and replayed once the app is live
 * (web/src/lib/early-clicks.ts). Issue 19: a held click on "Log In" (`/api/login`, a page the
 * server answers) landed on the app's not-found screen, because every held click went through the
 * router. Now a held click on a path the app has no screen for goes as an ordinary navigation, and one
 * on the app's own pages still goes through the router. The page is a journal article (server-rendered)
 * linking to both; its screen's code is held back, so the click surely lands inside the hydration.
 * A button clicked then (Add to Cart on a product page) is clicked again once the page is live; before,
 * such a click did nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, type E2eApp } from './support/app';

let app: E2eApp;
const slug = `held-clicks-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  app = await startE2eApp();
  await app.api.ctx.db.$client.query(`insert into blog_posts (title, slug, content, excerpt, published) values ($1, $2, $3, $4, true)`, [
    'Held clicks',
    slug,
    'Already a customer? [Sign in to your account](/api/login) or [browse the shop](/shop).',
    'Links on a page that is still hydrating.',
  ]);
});
afterAll(() => app?.close());

const ARTICLE_CHUNK = /\/assets\/journal-article-[A-Za-z0-9_-]{8}\.js$/;
const PRODUCT_CHUNK = /\/assets\/product-[A-Za-z0-9_-]{8}\.js$/;

/** Opens `path` with its screen's code (`chunk`) held back, makes the click, then lets the code through. */
async function clickWhileHydrating(path: string, chunk: RegExp, click: (page: Page) => Promise<void>): Promise<Page> {
  // Not app.newPage: its goto waits for the app to be live, and the click must come before.
  const context = await app.browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  let letThrough!: () => void;
  const clicked = new Promise<void>((resolve) => (letThrough = resolve));
  await page.route(chunk, async (route) => {
    await clicked;
    await route.continue();
  });
  const asked = page.waitForRequest(chunk);
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  // The entry script holds clicks before it asks for the screen's code.
  await asked;
  expect(await page.evaluate(() => document.documentElement.dataset.appReady)).toBeUndefined();
  await click(page);
  letThrough();
  return page;
}

const clickLink = (name: string) => (page: Page) => page.getByRole('link', { name }).click();

describe('a link clicked while the page hydrates', () => {
  it("to the sign-in page (/api/login) goes to the server's page, not the app's not-found screen", async () => {
    const page = await clickWhileHydrating(`/journal/${slug}`, ARTICLE_CHUNK, clickLink('Sign in to your account'));
    await page.waitForURL('**/api/login');
    await page.locator('h1#login-title').waitFor();
    expect(await page.locator('#root').count()).toBe(0);
    await page.context().close();
  });

  it("to one of the app's pages still goes through the router (no new document)", async () => {
    const page = await clickWhileHydrating(`/journal/${slug}`, ARTICLE_CHUNK, clickLink('browse the shop'));
    await page.waitForURL('**/shop');
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    const documents = await page.evaluate(() => performance.getEntriesByType('navigation').map((e) => new URL(e.name).pathname));
    expect(documents).toEqual([`/journal/${slug}`]);
    await page.context().close();
  });
});

describe('a button clicked while the page hydrates', () => {
  it('Add to Cart adds the product once the page is live, once', async () => {
    const page = await clickWhileHydrating('/product/glassy-streak-free-glass-cleaner', PRODUCT_CHUNK, (p) =>
      p.getByRole('button', { name: 'Add to Cart' }).click(),
    );
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await page.getByTestId('cart-count').waitFor({ state: 'attached' });
    expect(await page.getByTestId('cart-count').textContent()).toBe('1');
    expect(await page.getByTestId('cart-button').getAttribute('aria-label')).toBe('Open cart, 1 item');
    await page.context().close();
  });
});

describe('a link in an article clicked once the page is live', () => {
  it("to the sign-in page (/api/login) loads the server's page, not the app's not-found screen", async () => {
    const page = await app.newPage();
    await page.goto(`/journal/${slug}`);
    await page.getByRole('link', { name: 'Sign in to your account' }).click();
    await page.waitForURL('**/api/login');
    await page.locator('h1#login-title').waitFor();
    expect(await page.locator('#root').count()).toBe(0);
    await page.context().close();
  });
});
