/**
 * The five emails whose link carries a single-use secret (a staff invitation, a staff password reset, a
 * shopper password reset, a guest's order link, a plan's card link), end to end: the real API writes the request, the relay
 * moves it to the mail queue, the worker sends it to the local SMTP server, and the link in the email
 * is used through the API. The secret lives in the email and nowhere else: not in an outbox row, a job's
 * data, its return value, a failed attempt's record (anything in Redis under the queues' prefix), or a
 * log line of the API or the workers. The link works once. A job run again for an email already sent
 * changes nothing (the emailed link still works); a retry after a failed send makes a new secret.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { hashPassword } from '@nh/server/passwords';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs } from '../../api/test/support/staff';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, placeOrder, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerConfig } from '../src/lib/config';
import type { WorkerRuntime } from '../src/runtime';

const SITE_URL = 'https://shop.example.test';

/** Every log line of the API and the workers, as written (debug and up). */
const logged: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(chunk.toString('utf8'));
    done();
  },
});

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let config: WorkerConfig;
let runtime: WorkerRuntime;
let api: TestApi;

beforeAll(async () => {
  tdb = await createTestDatabase('links');
  smtp = await new TestSmtpServer().start();
  config = testWorkerConfig(tdb.url, 'links', {
    SMTP_URL: smtp.url,
    WORKER_QUEUES: 'emails',
    EMAIL_BACKOFF_MS: '50',
    SHOP_SITE_URL: SITE_URL,
  });
  runtime = await startTestWorkers(config, createLogger('workers-test', 'debug', sink));
  api = await startTestApi(
    { DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, LOG_LEVEL: 'debug' },
    { log: createLogger('api-test', 'debug', sink) },
  );
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

const unique = () => randomUUID().slice(0, 8);

/** The email to `to` once its send is committed, and the token of the link at `pathname` in it (in the address's fragment). */
async function emailedLink(kind: string, to: string, pathname: string): Promise<{ token: string; tokenId: string; text: string }> {
  const log = await waitFor(
    async () =>
      (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, to))).find(
        (r) => r.kind === kind && r.status === 'sent',
      ),
    15_000,
    `${kind} to ${to}`,
  );
  const mail = smtp.to(to).at(-1)!;
  const link = new RegExp(`${SITE_URL.replace(/\./g, '\\.')}${pathname}#token=([A-Za-z0-9_-]{43})`).exec(mail.decoded);
  expect(link, `the ${pathname}#token=… link in the email`).not.toBeNull();
  // Nowhere in the email is the token in a query string (a server would log it).
  expect(mail.decoded).not.toMatch(/[?&]token=/);
  return { token: link![1]!, tokenId: log.subjectId, text: mail.decoded };
}

/** Everything Redis holds under the queues' prefix (jobs' data, return values, failed attempts, events), as text. */
async function everythingInRedis(): Promise<string> {
  const redis = createRedis(config.REDIS_URL, 'client');
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.QUEUE_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** The token appears nowhere but in the email: outbox rows, anything in Redis (jobs, results, failures), log lines. */
async function expectOnlyInTheEmail(name: string, { token, tokenId }: { token: string; tokenId: string }): Promise<void> {
  // The job is done (its result stored) before anything is looked at.
  const job = await waitFor(
    async () =>
      (await runtime.queues.emails.getJobs(['completed'])).find(
        (j) => j.name === name && (j.data as { tokenId?: string }).tokenId === tokenId,
      ),
    10_000,
    `${name} job`,
  );
  expect(job.returnvalue).toMatchObject({ outcome: 'sent' });
  expect(JSON.stringify(job.data)).not.toContain(token);
  expect(JSON.stringify(job.returnvalue)).not.toContain(token);
  const outbox = await tdb.db.$client.query<{ row: string }>('select row_to_json(o)::text as row from outbox o');
  expect(
    outbox.rows.some((r) => r.row.includes(tokenId)),
    'the outbox row naming the link',
  ).toBe(true);
  expect(outbox.rows.filter((r) => r.row.includes(token))).toEqual([]);
  const redis = await everythingInRedis();
  expect(redis).toContain(tokenId);
  expect(redis.includes(token), 'the token in Redis').toBe(false);
  expect(logged.length).toBeGreaterThan(0);
  expect(logged.filter((line) => line.includes(token))).toEqual([]);
  // Only its hash is stored, of the token that was emailed.
  const stored = await tdb.db.$client.query<{ token_hash: string }>(
    `select token_hash from ${name.startsWith('staff') ? 'staff_tokens' : name === 'subscription-card-link' ? 'plan_card_links' : 'shopper_tokens'} where id = $1`,
    [tokenId],
  );
  expect(stored.rows[0]!.token_hash).toBe(hashSingleUseToken(token));
}

describe('emailed single-use links', () => {
  it('a staff invitation: the token only in the email; the link checks, then creates the account once', async () => {
    const owner = await signInAs(api, 'owner');
    const email = `invited-${unique()}@staff.test`;
    expect((await owner.request('/api/admin/staff/invitations', { body: { email, role: 'fulfilment' } })).status).toBe(201);
    const link = await emailedLink('staff-invitation', email, '/admin/invite');
    await expectOnlyInTheEmail('staff-invitation', link);

    expect(await (await api.request('/api/admin/invitations/check', { body: { token: link.token } })).json()).toEqual({
      email,
      role: 'fulfilment',
    });
    const accept = () =>
      api.request('/api/admin/invitations/accept', {
        body: { token: link.token, name: 'Fran Fulfilment', password: 'a long enough password' },
      });
    expect((await accept()).status).toBe(200);
    expect((await accept()).status).toBe(410);
  });

  it('a staff password reset: the token only in the email; a job run again for the sent email changes nothing, and the link works once', async () => {
    const member = await signInAs(api, 'support');
    expect((await api.request('/api/admin/password-reset', { body: { email: member.email } })).status).toBe(202);
    const link = await emailedLink('staff-password-reset', member.email, '/admin/reset-password');
    await expectOnlyInTheEmail('staff-password-reset', link);

    // The same job delivered again (a redelivery, a replay from the dashboard): the email is already sent, no new token is made.
    const again = await runtime.queues.emails.add('staff-password-reset', { tokenId: link.tokenId }, { jobId: `again-${link.tokenId}` });
    const result: unknown = await waitFor(
      async () => (await runtime.queues.emails.getJob(again.id!))?.returnvalue,
      10_000,
      'the job run again',
    );
    expect(result).toEqual({ outcome: 'skipped', reason: 'already sent' });
    const [row] = await tdb.db.select().from(tables.staffTokens).where(eq(tables.staffTokens.id, link.tokenId));
    expect(row!.tokenHash).toBe(hashSingleUseToken(link.token));
    expect(smtp.to(member.email)).toHaveLength(1);

    const confirm = () =>
      api.request('/api/admin/password-reset/confirm', { body: { token: link.token, password: 'a brand new password' } });
    expect((await confirm()).status).toBe(200);
    expect((await confirm()).status).toBe(410);
  });

  it('a shopper password reset after a failed send: the retry makes a new token; only it is emailed, only it works, once', async () => {
    const email = `shopper-${unique()}@example.com`;
    await tdb.db.insert(tables.users).values({ email, firstName: 'Robin', passwordHash: await hashPassword('the old password 1') });
    smtp.rejectTemporarily = new RegExp(`^${email.replace(/\./g, '\\.')}$`);
    let firstHash: string;
    try {
      expect((await api.request('/api/password/forgot', { body: { email } })).status).toBe(202);
      const failed = await waitFor(
        async () =>
          (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, email))).find((r) => r.error?.includes('451')),
        15_000,
        'a failed send',
      );
      const [row] = await tdb.db.select().from(tables.shopperTokens).where(eq(tables.shopperTokens.id, failed.subjectId));
      firstHash = row!.tokenHash;
    } finally {
      smtp.rejectTemporarily = null;
    }
    const link = await emailedLink('shopper-password-reset', email, '/account/reset-password');
    // The failed attempt's record in Redis holds no trace of it either.
    await expectOnlyInTheEmail('shopper-password-reset', link);
    expect(hashSingleUseToken(link.token)).not.toBe(firstHash);

    const reset = () => api.request('/api/password/reset', { body: { token: link.token, password: 'the new password 2' } });
    expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(410);
    expect((await api.request('/api/login', { body: { email, password: 'the new password 2' } })).status).toBe(200);
  });

  it('a guest order link: the token only in the email; the link opens the order once', async () => {
    const email = `guest-${unique()}@example.com`;
    const orderId = await placeOrder(tdb.db, { customerEmail: email, outbox: false });
    expect((await api.request('/api/orders/lookup', { body: { orderNumber: orderId.slice(0, 8), email } })).status).toBe(202);
    const link = await emailedLink('order-link', email, '/orders/view');
    await expectOnlyInTheEmail('order-link', link);

    const open = () => api.request('/api/orders/access', { body: { token: link.token } });
    const opened = await open();
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ id: orderId });
    expect((await open()).status).toBe(410);
  });
});

describe('a plan\'s card link (issue 21)', () => {
  it('the token only in the email, in the link\'s path (never a query string); the request log drops it; the page\'s calls work without signing in', async () => {
    const email = `card-link-${unique()}@example.com`;
    const [plan] = await tdb.db
      .insert(tables.subscriptions)
      .values({
        customerEmail: email,
        customerName: 'Sam Saver',
        items: [{ productId: 1, productName: 'Link Cleaner', variantSku: null, sku: null, itemNumber: null, quantity: 1, price: '10.00' }],
        amount: 918,
        nextBillingDate: new Date(Date.now() + 10 * 86_400_000),
        shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
        userId: (await tdb.db.insert(tables.users).values({ email, firstName: 'Sam' }).returning({ id: tables.users.id }))[0]!.id,
      })
      .returning({ id: tables.subscriptions.id });
    const staff = await signInAs(api, 'support');
    expect((await staff.request(`/api/admin/subscriptions/${plan!.id}/card-link`, { method: 'POST', body: { reason: 'Card expired' } })).status).toBe(200);

    const log = await waitFor(
      async () => (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, email))).find((r) => r.kind === 'subscription-card-link' && r.status === 'sent'),
      15_000,
      'card link email',
    );
    const mail = smtp.to(email).at(-1)!;
    const link = new RegExp(`${SITE_URL.replace(/\./g, '\\.')}/subscriptions/update-card/([A-Za-z0-9_-]{43})`).exec(mail.decoded);
    expect(link, 'the /subscriptions/update-card/<token> link in the email').not.toBeNull();
    expect(mail.decoded).not.toMatch(/[?&#]token=/);
    const token = link![1]!;

    // The page's calls: the plan's summary, then (here) a card refused by the sandbox keeps the link; the request log never holds the token.
    expect((await api.request(`/api/subscriptions/update-card/${token}`)).status).toBe(200);
    expect((await api.request(`/api/subscriptions/update-card/${token}`, { body: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'not-a-token' } })).status).toBeGreaterThanOrEqual(400);
    await waitFor(() => logged.some((line) => line.includes('/api/subscriptions/update-card/[redacted]')), 5000, 'the request log line');
    await expectOnlyInTheEmail('subscription-card-link', { token, tokenId: log.subjectId });
  });
});

describe('changing a customer’s email (issue 23)', () => {
  it('the link to the new address carries the token in its path only; confirming changes the email and tells the old address', async () => {
    const oldEmail = `old-${unique()}@example.com`;
    const newEmail = `new-${unique()}@example.com`;
    const [user] = await tdb.db.insert(tables.users).values({ email: oldEmail, firstName: 'Robin', passwordHash: await hashPassword('a password 123') }).returning({ id: tables.users.id });
    const staff = await signInAs(api, 'support');
    expect((await staff.request(`/api/admin/customers/${user!.id}/email-change`, { method: 'POST', body: { email: newEmail } })).status).toBe(202);

    const log = await waitFor(
      async () => (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, newEmail))).find((r) => r.kind === 'customer-email-change' && r.status === 'sent'),
      15_000,
      'email change link',
    );
    const mail = smtp.to(newEmail).at(-1)!;
    const link = new RegExp(`${SITE_URL.replace(/\./g, '\\.')}/account/confirm-email/([A-Za-z0-9_-]{43})`).exec(mail.decoded);
    expect(link, 'the /account/confirm-email/<token> link in the email').not.toBeNull();
    expect(mail.decoded).not.toMatch(/[?&#]token=/);
    expect(mail.decoded).toContain('Hi Robin');
    expect(smtp.to(oldEmail)).toHaveLength(0);
    const token = link![1]!;

    // The page's calls; the request log keeps neither.
    expect(await (await api.request(`/api/account/email-change/${token}`, { method: 'GET' })).json()).toMatchObject({ email: newEmail });
    expect((await api.request(`/api/account/email-change/${token}`, { method: 'POST' })).status).toBe(200);
    expect((await api.request(`/api/account/email-change/${token}`, { method: 'POST' })).status).toBe(410);
    await expectOnlyInTheEmail('customer-email-change', { token, tokenId: log.subjectId });

    // The notice to the old address: no link that opens anything, the new address masked.
    await waitFor(
      async () => (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, oldEmail))).find((r) => r.kind === 'customer-email-changed' && r.status === 'sent'),
      15_000,
      'email changed notice',
    );
    const notice = smtp.to(oldEmail).at(-1)!.decoded;
    expect(notice).toContain(`is no longer ${oldEmail}`);
    expect(notice).toContain('changed to ne••••••@example.com');
    expect(notice).not.toContain(newEmail);
    expect(notice).not.toContain(token);
    expect(notice).not.toContain('/account/confirm-email/');
    const [account] = await tdb.db.select({ email: tables.users.email }).from(tables.users).where(eq(tables.users.id, user!.id));
    expect(account!.email).toBe(newEmail);
  });
});
