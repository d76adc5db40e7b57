import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eApp, type E2eApp } from './support/app';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(() => app?.close());

describe('the built SPA served by the API', () => {
  it('deep-links to a route and reloads (history fallback)', async () => {
    const page = await app.newPage();
    const response = await page.goto('/legal/shipping');
    expect(response?.status()).toBe(200);
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/legal/shipping');
  });

  it('shows the not-found screen for an unknown path', async () => {
    const page = await app.newPage();
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByText('404 Page Not Found').isVisible()).toBe(true);
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
  });
});
