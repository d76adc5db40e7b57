import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { newsletterResponseSchema } from '@nh/shared/contracts/newsletter';
import * as tables from '@nh/server/db/schema';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const subscribe = (body: unknown) => api.request('/api/newsletter', { method: 'POST', body });
const uniqueEmail = () => `Reader.${randomBytes(4).toString('hex')}@Example.com`;

async function rowsFor(email: string) {
  const subscribers = await api.ctx.db.select().from(tables.newsletterSubscribers).where(eq(tables.newsletterSubscribers.email, email));
  const outbox = await api.ctx.db
    .select()
    .from(tables.outbox)
    .where(and(eq(tables.outbox.topic, OUTBOX_TOPICS.newsletterSubscribed), sql`${tables.outbox.payload}->>'email' = ${email}`));
  return { subscribers, outbox };
}

describe('POST /api/newsletter', () => {
  it('subscribes a new address (stored in lower case) and records the welcome email in the outbox', async () => {
    const email = uniqueEmail();
    const res = await subscribe({ email: `  ${email} ` });
    expect(res.status).toBe(201);
    expect(newsletterResponseSchema.parse(await res.json())).toEqual({ message: "You've been subscribed to our newsletter.", alreadySubscribed: false });

    const { subscribers, outbox } = await rowsFor(email.toLowerCase());
    expect(subscribers).toHaveLength(1);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.payload).toEqual({ subscriberId: subscribers[0]!.id, email: email.toLowerCase() });
  });

  it('answers a duplicate address with the same success shape and writes nothing more', async () => {
    const email = uniqueEmail();
    expect((await subscribe({ email })).status).toBe(201);
    const again = await subscribe({ email: email.toUpperCase() });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: "You've been subscribed to our newsletter.", alreadySubscribed: true });

    const { subscribers, outbox } = await rowsFor(email.toLowerCase());
    expect(subscribers).toHaveLength(1);
    expect(outbox).toHaveLength(1);
  });

  it('keeps one row when the same address arrives twice at once', async () => {
    const email = uniqueEmail();
    const answers = await Promise.all([subscribe({ email }), subscribe({ email })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 201]);
    const { subscribers, outbox } = await rowsFor(email.toLowerCase());
    expect(subscribers).toHaveLength(1);
    expect(outbox).toHaveLength(1);
  });

  it.each([
    [{ email: '' }, 'Please enter your email address.'],
    [{ email: '   ' }, 'Please enter your email address.'],
    [{}, 'Please enter your email address.'],
    [{ email: 'reader' }, 'Please enter a valid email address.'],
    [{ email: 'reader@example' }, 'Please enter a valid email address.'],
    [{ email: 'read er@example.com' }, 'Please enter a valid email address.'],
    [{ email: `${'x'.repeat(250)}@example.com` }, 'Please enter a valid email address.'],
  ])('refuses %j with 400 "%s" and writes nothing', async (body, message) => {
    const res = await subscribe(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message });
    const email = (body as { email?: string }).email?.trim().toLowerCase();
    if (email) expect(await rowsFor(email)).toEqual({ subscribers: [], outbox: [] });
  });
});

describe('unsubscribe link (/api/newsletter/unsubscribe/{token})', () => {
  const subscriberOf = async (email: string) =>
    (await api.ctx.db.select().from(tables.newsletterSubscribers).where(eq(tables.newsletterSubscribers.email, email)))[0]!;
  /** What a mail client sends for RFC 8058 one-click: a form body, no cookie, no Origin. */
  const oneClick = (token: string) =>
    fetch(`${api.url}/api/newsletter/unsubscribe/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
  const masked = (email: string) => `${email[0]}***${email.slice(email.indexOf('@'))}`;

  it('unsubscribes with the one-click form POST, repeats answer 200, and a sign-up brings the address back', async () => {
    const email = uniqueEmail().toLowerCase();
    expect((await subscribe({ email })).status).toBe(201);
    const { unsubscribeToken: token, unsubscribedAt } = await subscriberOf(email);
    expect(unsubscribedAt).toBeNull();
    expect(await (await api.request(`/api/newsletter/unsubscribe/${token}`)).json()).toEqual({ email: masked(email), subscribed: true });

    const first = await oneClick(token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ email: masked(email), subscribed: false });
    const stored = (await subscriberOf(email)).unsubscribedAt;
    expect(stored).toBeInstanceOf(Date);

    // Again (a mail client retrying, or the page's button after the one-click): same answer, first time kept.
    const again = await api.request(`/api/newsletter/unsubscribe/${token}`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ email: masked(email), subscribed: false });
    expect((await subscriberOf(email)).unsubscribedAt).toEqual(stored);
    expect(await (await api.request(`/api/newsletter/unsubscribe/${token}`)).json()).toEqual({ email: masked(email), subscribed: false });

    // Signing up again clears it, with a new welcome job (the email log sends it only if it never went out).
    const back = await subscribe({ email });
    expect(back.status).toBe(201);
    expect(await back.json()).toEqual({ message: "You've been subscribed to our newsletter.", alreadySubscribed: false });
    expect(await subscriberOf(email)).toMatchObject({ unsubscribedAt: null, unsubscribeToken: token });
    expect((await rowsFor(email)).outbox).toHaveLength(2);
    // …and once back on the list, it is "already subscribed" again.
    expect(await (await subscribe({ email })).json()).toMatchObject({ alreadySubscribed: true });
    expect((await rowsFor(email)).outbox).toHaveLength(2);
  });

  it.each([
    ['an unknown token', '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'],
    ['a malformed token', 'not-a-token'],
    ['a token with a NUL', '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4%00'],
  ])('answers 404 for %s, to the one-click POST and to the page', async (_label, token) => {
    for (const res of [await oneClick(token), await api.request(`/api/newsletter/unsubscribe/${token}`)]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'We could not find this unsubscribe link. Please use the whole link from the email.', code: 'NOT_FOUND' });
    }
  });
});

describe('sign-up limit', () => {
  it('answers 429 after 30 sign-ups in an hour from one address', async () => {
    const limited = await startTestApi();
    try {
      const email = uniqueEmail();
      for (let i = 0; i < 30; i += 1) expect((await limited.request('/api/newsletter', { body: { email } })).status).toBeLessThan(300);
      const res = await limited.request('/api/newsletter', { body: { email } });
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ message: 'Too many sign-ups from this address. Please try again later.', code: 'RATE_LIMITED' });
    } finally {
      await limited.close();
    }
  });
});
