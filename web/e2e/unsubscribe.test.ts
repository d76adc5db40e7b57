/**
 * The newsletter's unsubscribe page in real Chromium against the real API: the link from the email
 * opens /unsubscribe/{token}, one button takes the address off the list, and the page's sign-up form
 * brings it back.
 */
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, seriousAxeViolations, toast } from './support/page-helpers';
import { startE2eApp, type E2eApp } from './support/app';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(() => app?.close());

const subscriber = async (email: string) =>
  (await app.api.ctx.db.select().from(tables.newsletterSubscribers).where(eq(tables.newsletterSubscribers.email, email)))[0]!;

describe('unsubscribe page', () => {
  it('unsubscribes with one button, says so, and signs up again through the form', async () => {
    const email = `leaving-${Date.now()}@example.com`;
    expect((await app.api.request('/api/newsletter', { body: { email } })).status).toBe(201);
    const { unsubscribeToken } = await subscriber(email);

    const page = await app.newPage();
    await page.goto(`/unsubscribe/${unsubscribeToken}`);
    await page.getByRole('heading', { name: 'Unsubscribe from the Nurture Home newsletter' }).waitFor();
    expect(await page.getByText('l***@example.com').isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await page.getByRole('heading', { name: 'You have been unsubscribed' }).waitFor();
    expect((await subscriber(email)).unsubscribedAt).toBeInstanceOf(Date);

    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await toast(page, 'Success!', "You've been subscribed to our newsletter.");
    await poll(async () => (await subscriber(email)).unsubscribedAt).toBeNull();
  });

  it('says plainly when the link is not known', async () => {
    const page = await app.newPage();
    await page.goto('/unsubscribe/not-a-real-token');
    await page.getByRole('heading', { name: 'We could not find this link' }).waitFor();
    expect(await page.getByRole('button', { name: 'Unsubscribe', exact: true }).count()).toBe(0);
  });
});
