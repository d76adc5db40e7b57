/**
 * Changing a customer's email, verified by the customer (issue 23): staff start it, the new address gets
 * a single-use link (hash stored, token in the path, 24 h), the customer confirms, and only then does the
 * account's (and the customer's) email change; the old address is told. Reuse, expiry, a newer link, an
 * address another account has, roles and the rate limit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDetailSchema } from '@nh/shared/contracts/admin-customers';
import { EMAIL_CHANGE_MESSAGES } from '@nh/shared/contracts/email-change';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { emailedTokens, linkRows } from './support/emailed-links';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let fulfilment: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  [manager, support, fulfilment] = await Promise.all([signInAs(api, 'manager'), signInAs(api, 'support'), signInAs(api, 'fulfilment')]);
});
afterAll(() => api.close());

const start = (staff: StaffClient, customerId: string, email: unknown) => staff.request(`/api/admin/customers/${customerId}/email-change`, { method: 'POST', body: { email } });
const show = (token: string) => api.request(`/api/account/email-change/${token}`, { method: 'GET' });
const confirm = (token: string) => api.request(`/api/account/email-change/${token}`, { method: 'POST' });
const newAddress = (what: string) => `${what}.${randomUUID().slice(0, 8)}@example.com`;

describe('changing a customer’s email', () => {
  it('staff start it; nothing changes until the customer confirms on the page; then the account, the customer and the old address', async () => {
    const shopper = await signUpShopper(api, 'email-change');
    const next = newAddress('New.Address');
    const started = await json(await start(support, shopper.id, ` ${next.toUpperCase()} `), 202);
    expect(started).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.started, email: next.toLowerCase(), expiresAt: expect.any(String) });
    const hours = (Date.parse(started.expiresAt as string) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    // Audited with the person; the outbox names the link's row, no secret.
    const [audit] = await q<{ actor_email: string; before: unknown; after: { email: string } }>("select actor_email, before, after from audit_events where entity_id = $1 and action = 'customer.email_change_started'", [shopper.id]);
    expect(audit).toMatchObject({ actor_email: support.email, before: { email: shopper.email }, after: { email: next.toLowerCase() } });
    const [row] = await linkRows(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, next);
    expect(row!.payload).toEqual({ tokenId: row!.tokenId });
    // Not yet changed.
    expect((await q<{ email: string }>('select email from users where id = $1', [shopper.id]))[0]!.email).toBe(shopper.email);

    const [token] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, next);
    // Only the hash is stored.
    const stored = await q<{ token_hash: string }>('select token_hash from shopper_tokens where id = $1', [row!.tokenId]);
    expect(stored).toEqual([{ token_hash: hashSingleUseToken(token!) }]);
    expect(JSON.stringify(await q('select * from shopper_tokens where id = $1', [row!.tokenId]))).not.toContain(token);

    // GET shows and spends nothing (link previews, mail scanners); twice is fine.
    expect(await json(await show(token!), 200)).toEqual({ email: next.toLowerCase(), expiresAt: started.expiresAt });
    await json(await show(token!), 200);
    expect((await q<{ email: string }>('select email from users where id = $1', [shopper.id]))[0]!.email).toBe(shopper.email);

    expect(await json(await confirm(token!), 200)).toEqual({ message: EMAIL_CHANGE_MESSAGES.confirmed, email: next.toLowerCase() });
    expect((await q<{ email: string }>('select email from users where id = $1', [shopper.id]))[0]!.email).toBe(next.toLowerCase());
    const customer = customerDetailSchema.parse(await json(await support.request(`/api/admin/customers/${shopper.id}`), 200));
    expect(customer.email).toBe(next.toLowerCase());
    // The notice to the old address is asked for (the spent link keeps the old address for it).
    expect(await q("select payload from outbox where topic = 'customer.email-changed' and payload->>'tokenId' = $1", [row!.tokenId])).toEqual([{ payload: { tokenId: row!.tokenId } }]);
    expect(await q('select previous_email from shopper_tokens where id = $1', [row!.tokenId])).toEqual([{ previous_email: shopper.email }]);
    // The customer's page shows both steps in words.
    const titles = customer.timeline.filter((e) => e.kind === 'audit').map((e) => [e.title, e.by]);
    expect(titles).toEqual(
      expect.arrayContaining([
        ['Customer confirmed their new email address', 'the customer (emailed link)'],
        ['Sent a customer a link to confirm a new email address', support.email],
      ]),
    );

    // Used: refused the second time, in words.
    expect(await json(await confirm(token!), 410)).toMatchObject({ code: 'EMAIL_CHANGE_LINK_USED', message: EMAIL_CHANGE_MESSAGES.linkUsed });
    expect(await json(await show(token!), 410)).toMatchObject({ code: 'EMAIL_CHANGE_LINK_USED' });
    // The shopper signs in with the new address, no longer with the old one.
    await json(await api.request('/api/login', { body: { email: next, password: 'correct horse battery' } }), 200);
    expect((await api.request('/api/login', { body: { email: shopper.email, password: 'correct horse battery' } })).status).toBe(401);
    expect(await q('select 1 as one from shopper_tokens where user_id = $1 and purpose = $2 and used_at is null', [shopper.id, 'email_change'])).toEqual([]);
  });

  it('two confirmations at once change the email once', async () => {
    const shopper = await signUpShopper(api, 'email-change-twice');
    const next = newAddress('twice');
    await json(await start(manager, shopper.id, next), 202);
    const [token] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, next);
    const answers = await Promise.all([confirm(token!), confirm(token!), confirm(token!)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410, 410]);
    expect(await q("select count(*)::int as n from audit_events where entity_id = $1 and action = 'customer.email_changed'", [shopper.id])).toEqual([{ n: 1 }]);
    expect(await q("select count(*)::int as n from outbox where topic = 'customer.email-changed' and payload->>'tokenId' in (select id::text from shopper_tokens where user_id = $1)", [shopper.id])).toEqual([{ n: 1 }]);
  });

  it('refuses an expired link, a replaced link and a forged one, with what to do', async () => {
    const shopper = await signUpShopper(api, 'email-change-expired');
    const first = newAddress('first');
    await json(await start(support, shopper.id, first), 202);
    const [firstRow] = await linkRows(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, first);
    const [firstToken] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, first);
    await q("update shopper_tokens set expires_at = now() - interval '1 second' where id = $1", [firstRow!.tokenId]);
    expect(await json(await show(firstToken!), 410)).toMatchObject({ code: 'EMAIL_CHANGE_LINK_EXPIRED', message: EMAIL_CHANGE_MESSAGES.linkExpired });
    expect(await json(await confirm(firstToken!), 410)).toMatchObject({ code: 'EMAIL_CHANGE_LINK_EXPIRED' });

    // A new change replaces any open link: the older one stops working.
    const second = newAddress('second');
    const third = newAddress('third');
    await json(await start(support, shopper.id, second), 202);
    const [secondToken] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, second);
    await json(await start(support, shopper.id, third), 202);
    expect(await json(await confirm(secondToken!), 404)).toMatchObject({ code: 'EMAIL_CHANGE_LINK_INVALID', message: EMAIL_CHANGE_MESSAGES.linkReplaced });
    expect((await q<{ email: string }>('select email from users where id = $1', [shopper.id]))[0]!.email).toBe(shopper.email);

    for (const forged of [`${secondToken}x`, 'short', 'a'.repeat(43)]) {
      expect(await json(await confirm(forged), 404)).toMatchObject({ code: 'EMAIL_CHANGE_LINK_INVALID', message: EMAIL_CHANGE_MESSAGES.linkInvalid });
    }
  });

  it('refuses an address another account has: when starting, and when it was taken meanwhile', async () => {
    const [shopper, other] = await Promise.all([signUpShopper(api, 'email-change-taken'), signUpShopper(api, 'email-change-other')]);
    expect(await json(await start(support, shopper.id, other.email.toUpperCase()), 409)).toMatchObject({ code: 'CUSTOMER_EMAIL_TAKEN', message: EMAIL_CHANGE_MESSAGES.taken });
    expect(await json(await start(support, shopper.id, shopper.email), 422)).toMatchObject({ code: 'CUSTOMER_EMAIL_SAME', message: EMAIL_CHANGE_MESSAGES.sameEmail });

    const next = newAddress('race');
    await json(await start(support, shopper.id, next), 202);
    const [token] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, next);
    // Another account takes the address before the customer confirms.
    await q('update users set email = $1 where id = $2', [next, other.id]);
    expect(await json(await confirm(token!), 409)).toMatchObject({ code: 'CUSTOMER_EMAIL_TAKEN', message: EMAIL_CHANGE_MESSAGES.taken });
    expect((await q<{ email: string }>('select email from users where id = $1', [shopper.id]))[0]!.email).toBe(shopper.email);
  });

  it('takes in a guest’s orders of the new address (one customer per email)', async () => {
    const shopper = await signUpShopper(api, 'email-change-guest');
    const next = newAddress('guest-before');
    await q(
      `insert into orders (store_code, customer_email, customer_name, shipping_address, items, subtotal, shipping, tax, total, status)
       values ('NH', $1, 'Ada Guest', '{"address":"1 Main St","city":"Springfield","state":"IL","zip":"62701"}', '[]', 10, 0, 0, 10, 'processing')`,
      [next],
    );
    await json(await start(support, shopper.id, next), 202);
    const [token] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, next);
    await json(await confirm(token!), 200);
    expect(await q('select id::text, email, order_count from customers where email = $1', [next])).toEqual([{ id: shopper.id, email: next, order_count: 1 }]);
  });

  it('bad input, guests, roles and the hourly limit', async () => {
    const shopper = await signUpShopper(api, 'email-change-input');
    for (const bad of ['', 'not-an-email', 42, null]) {
      expect(await json(await start(support, shopper.id, bad), 400)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.email });
    }
    const guestEmail = newAddress('guest');
    await q(`insert into customers (email) values ($1)`, [guestEmail]);
    const [guest] = await q<{ id: string }>('select id::text from customers where email = $1', [guestEmail]);
    expect(await json(await start(support, guest!.id, newAddress('x')), 409)).toMatchObject({ code: 'CUSTOMER_NO_ACCOUNT' });
    expect((await start(fulfilment, shopper.id, newAddress('x'))).status).toBe(403);
    expect((await api.request(`/api/admin/customers/${shopper.id}/email-change`, { method: 'POST', body: { email: newAddress('x') } })).status).toBe(401);

    for (let i = 0; i < 5; i++) await json(await start(manager, shopper.id, newAddress(`limit${i}`)), 202);
    expect(await json(await start(manager, shopper.id, newAddress('limit-over')), 429)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.tooMany });
  });
});

describe('the shopper changes their own email (POST /api/account/email)', () => {
  const own = (shopper: { call: (path: string, init?: { method?: string; body?: unknown }) => Promise<Response> }, body: unknown) =>
    shopper.call('/api/account/email', { method: 'POST', body });

  it('with their current password: the link goes to the new address, nothing changes until it is confirmed, audited as the customer', async () => {
    const shopper = await signUpShopper(api, 'own-change');
    const next = newAddress('Mine');
    expect(await json(await own(shopper, { email: next }), 403)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.passwordRequired });
    expect(await json(await own(shopper, { email: next, password: 'not my password' }), 403)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.passwordWrong });
    expect(await json(await own(shopper, { email: shopper.email, password: 'correct horse battery' }), 422)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.ownSameEmail });
    expect(await json(await own(shopper, { email: 'not an address', password: 'correct horse battery' }), 400)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.email });

    const started = await json(await own(shopper, { email: next.toUpperCase(), password: 'correct horse battery' }), 202);
    expect(started).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.ownStarted, email: next.toLowerCase() });
    const [account] = await q<{ email: string }>('select email from users where id = $1', [shopper.id]);
    expect(account!.email).toBe(shopper.email);
    const [audit] = await q<{ actor_email: string; after: Record<string, unknown> }>("select actor_email, after from audit_events where entity_id = $1 and action = 'customer.email_change_started'", [shopper.id]);
    expect(audit).toMatchObject({ actor_email: 'the customer (their account)', after: { email: next.toLowerCase(), startedBy: 'customer' } });

    // The same link and confirmation as a change staff start: the page confirms, the old address is told.
    const [token] = await emailedTokens(api.ctx.db, OUTBOX_TOPICS.customerEmailChangeRequested, next.toLowerCase());
    expect((await confirm(token!)).status).toBe(200);
    const [changed] = await q<{ email: string }>('select email from users where id = $1', [shopper.id]);
    expect(changed!.email).toBe(next.toLowerCase());
    expect(await q("select 1 from outbox where topic = 'customer.email-changed'")).not.toHaveLength(0);
  });

  it('an address another account has is refused in the shopper’s words; signed out is 401', async () => {
    const [shopper, other] = await Promise.all([signUpShopper(api, 'own-taken'), signUpShopper(api, 'own-other')]);
    expect(await json(await own(shopper, { email: other.email, password: 'correct horse battery' }), 409)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.ownTaken });
    expect((await api.request('/api/account/email', { method: 'POST', body: { email: newAddress('x'), password: 'correct horse battery' } })).status).toBe(401);
  });

  it('a passwordless account: a sign-in of the last 10 minutes, else sign in again', async () => {
    const shopper = await signUpShopper(api, 'own-nopass');
    await q('update users set password_hash = null where id = $1', [shopper.id]);
    expect(await json(await own(shopper, { email: newAddress('fresh') }), 202)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.ownStarted });
    // The session's sign-in is now 11 minutes old.
    await q(`update sessions set sess = jsonb_set(sess::jsonb, '{signedInAt}', to_jsonb($1::bigint)) where sess::jsonb->>'userId' = $2`, [Date.now() - 11 * 60_000, shopper.id]);
    expect(await json(await own(shopper, { email: newAddress('stale') }), 403)).toMatchObject({ message: EMAIL_CHANGE_MESSAGES.signInAgain });
  });
});
