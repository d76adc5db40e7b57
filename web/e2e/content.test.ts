/**
 * Content screens in real Chromium against the real API and seeded test database: a journal article
 * with its FAQ, the not-found screens, the support page's contact links, legal and impact pages.
 */
import { SHOP } from '@nh/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(() => app?.close());

const ARTICLE = 'how-probiotic-cleaners-work';

describe('journal', () => {
  it('goes from the list to an article with its meta, body, related resources and one-open-at-a-time FAQ', async () => {
    const page = await app.newPage();
    await page.goto('/journal');
    const title = 'How Probiotic Cleaners Work (and Why They Keep Working After You Wipe)';
    await page.getByRole('link', { name: title }).click();
    await page.waitForURL(`**/journal/${ARTICLE}`);

    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.title()).toBe('How Probiotic Cleaners Work | Nurture Home Journal');
    expect(await page.getByText('Maya Ellison').isVisible()).toBe(true);
    expect(await page.getByText('5 min read').isVisible()).toBe(true);
    // Body markup: a heading, a table and an internal link rendered by the router.
    expect(await page.getByRole('heading', { level: 2, name: 'The three-stage process' }).isVisible()).toBe(true);
    expect(await page.getByRole('columnheader', { name: 'Probiotic cleaner' }).isVisible()).toBe(true);
    expect(await page.locator('article script').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Related Resources' }).isVisible()).toBe(true);

    const first = page.getByRole('button', { name: 'Are probiotic cleaners disinfectants?' });
    const second = page.getByRole('button', { name: 'How long do probiotic cleaners keep working?' });
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await page.getByText('Use a disinfectant when public-health guidance calls for one.', { exact: false }).waitFor();
    await second.click();
    expect(await second.getAttribute('aria-expanded')).toBe('true');
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    await second.click();
    expect(await second.getAttribute('aria-expanded')).toBe('false');

    await page.getByRole('link', { name: 'View All Articles' }).click();
    await page.waitForURL('**/journal');
  });
});

describe('not-found screens', () => {
  it('shows the router not-found screen for an unknown path', async () => {
    const page = await app.newPage();
    await page.goto('/definitely/not/here');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('shows Page Not Found for an unknown legal page, with a way back to support', async () => {
    const page = await app.newPage();
    await page.goto('/legal/cookies');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.getByText("The legal page you're looking for doesn't exist.").isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to Support' }).click();
    await page.waitForURL('**/support');
    await page.getByRole('heading', { level: 1, name: 'How Can We Help?' }).waitFor();
  });

  it('shows Article Not Found for an unknown article', async () => {
    const page = await app.newPage();
    await page.goto('/journal/no-such-article');
    await page.getByRole('heading', { name: 'Article Not Found' }).waitFor();
    expect(await page.getByText("The article you're looking for doesn't exist or may have been moved.").isVisible()).toBe(true);
  });
});

describe('accessibility', () => {
  it.each([`/journal/${ARTICLE}`, '/journal', '/support', '/legal/shipping', '/impact', '/ingredients', '/how-it-works', '/about', '/no/such/page'])('has no serious axe-core violations on %s', async (path) => {
    const page = await app.newPage();
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

describe('support and legal pages', () => {
  it('links phone and email, shows Live Chat as coming soon, and explains order tracking', async () => {
    const page = await app.newPage();
    await page.goto('/support');
    const contact = page.locator('#contact');
    const phone = contact.getByRole('link', { name: SHOP.supportPhone, exact: true });
    await phone.waitFor();
    expect(await phone.getAttribute('href')).toBe('tel:+18005550142');
    expect(await contact.getByRole('link', { name: SHOP.supportEmail, exact: true }).getAttribute('href')).toBe(`mailto:${SHOP.supportEmail}`);
    expect(await contact.getByRole('button', { name: 'Live Chat' }).isDisabled()).toBe(true);
    expect(await contact.getByText('Coming soon', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(SHOP.supportHours).first().isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Track Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Track Your Order' });
    await dialog.waitFor();
    expect(await dialog.getByRole('link', { name: 'Email Support' }).getAttribute('href')).toBe(`mailto:${SHOP.supportEmail}?subject=Order%20status`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // FAQ categories open independently.
    await page.getByRole('button', { name: 'How long does shipping take?' }).click();
    await page.getByRole('button', { name: 'What is your return policy?' }).click();
    expect(await page.getByRole('button', { name: 'How long does shipping take?' }).getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByText(/carrier delivers in 1-5 business days/).isVisible()).toBe(true);
  });

  it('shows a legal page with the operations facts, last-updated date and contact links', async () => {
    const page = await app.newPage();
    await page.goto('/legal/shipping');
    await page.getByRole('heading', { level: 1, name: 'Shipping Policy' }).waitFor();
    expect(await page.getByText('Orders of $50 or less: standard shipping $9.99.').isVisible()).toBe(true);
    expect(await page.getByText('Orders over $50: free standard shipping.').isVisible()).toBe(true);
    expect(await page.getByRole('row', { name: /Alaska and Hawaii/ }).textContent()).toContain('$14.99');
    expect(await page.getByText(/Last updated/).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Returns & Refunds' }).click();
    await page.getByRole('heading', { level: 1, name: 'Returns & Refunds' }).waitFor();
    expect(await page.getByText(/refunds are processed in 5-7 business days/).isVisible()).toBe(true);
  });

  it('shows the impact dashboard with progress fixed at 85, 72 and 50 percent', async () => {
    const page = await app.newPage();
    await page.goto('/sustainability');
    await page.getByRole('heading', { level: 1, name: 'Our Environmental Impact' }).waitFor();
    await page.getByTestId('impact-bottlesSaved').waitFor();
    const values = await page.getByRole('progressbar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-valuenow')));
    expect(values).toEqual(['85', '72', '50']);
  });
});
