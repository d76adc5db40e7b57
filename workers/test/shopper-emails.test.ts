/**
 * The shoppers' self-service emails (issue 13) over the local SMTP test server: the guest's order link
 * and the password reset, each made from its outbox row as the API writes it (the link's row id only;
 * the worker makes the token as it sends, and shopper_tokens keeps its hash), sent once, and not sent
 * for a link spent or expired before the job ran.
 */
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SHOP } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { insertShopperToken } from '@nh/server/queries/shopper-self-service';
import { recordOutbox } from '@nh/server/queries/outbox';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, tempDir, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import { localFileStorage } from '@nh/server/storage';
import type { WorkerRuntime } from '../src/runtime';

const SITE_URL = 'https://shop.example.test';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;

beforeAll(async () => {
  tdb = await createTestDatabase('shopper-mail');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'shopper-mail', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', EMAIL_BACKOFF_MS: '50', SHOP_SITE_URL: SITE_URL }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

/** As the API does: the token row and its outbox row (the row's id only) in one transaction. */
async function requestLink(values: { purpose: 'order_access' | 'password_reset'; email: string; orderId?: string; userId?: string; expiresAt?: Date }): Promise<{ id: string }> {
  return tdb.db.transaction(async (tx) => {
    const row = await insertShopperToken(tx, { expiresAt: new Date(Date.now() + 3_600_000), ...values });
    await recordOutbox(tx, values.purpose === 'order_access' ? 'order.link-requested' : 'shopper.password-reset-requested', { tokenId: row.id });
    return { id: row.id };
  });
}

const emailLog = (kind: string, subjectId: string) => waitFor(async () => (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.subjectId, subjectId))).find((r) => r.kind === kind && r.status !== 'pending'), 10_000, `${kind} log`);

/** The token in an emailed link (`…#token=…`), checked against the hash its row keeps once the send committed. */
async function emailedToken(text: string, pathname: string, kind: string, id: string): Promise<string> {
  await emailLog(kind, id);
  const token = new RegExp(`${SITE_URL}${pathname}#token=([A-Za-z0-9_-]{43})`).exec(text)?.[1];
  expect(token).toBeDefined();
  const [row] = await tdb.db.select().from(tables.shopperTokens).where(eq(tables.shopperTokens.id, id));
  expect(row!.tokenHash).toBe(hashSingleUseToken(token!));
  return token!;
}

describe('shopper self-service emails', () => {
  it('sends a guest the single-use link to an order: number, link to /orders/view, how long it works', async () => {
    const email = 'lookup-guest@example.com';
    const orderId = await placeOrder(tdb.db, { customerEmail: email, customerName: 'Gale Guest', items: [sampleLine()], outbox: false });
    const { id } = await requestLink({ purpose: 'order_access', email, orderId });
    const [mail] = await waitFor(() => (smtp.to(email).length ? smtp.to(email) : null), 10_000, 'order link');
    const number = orderId.slice(0, 8);
    const link = `${SITE_URL}/orders/view#token=${await emailedToken(mail!.decoded, '/orders/view', 'order-link', id)}`;
    expect(mail!.decoded).toContain(`Subject: Your link to ${SHOP.name} order #${number}`);
    expect(mail!.decoded).toContain('Hi Gale Guest,');
    expect(mail!.decoded).toContain(link);
    expect(mail!.decoded).toContain(`<a href="${link}"`);
    expect(mail!.decoded).toContain('The link works once, for 24 hours');
    expect(mail!.decoded).toContain(`Questions? ${SHOP.supportEmail}`);
    expect(await emailLog('order-link', id)).toMatchObject({ status: 'sent', toAddress: email });
  });

  it('sends a shopper the password reset link: /account/reset-password, one hour, every session ended', async () => {
    const email = 'reset-shopper@example.com';
    const [user] = await tdb.db.insert(tables.users).values({ email, firstName: 'Robin', lastName: 'Reset', passwordHash: 'x' }).returning({ id: tables.users.id });
    const { id } = await requestLink({ purpose: 'password_reset', email, userId: user!.id });
    const [mail] = await waitFor(() => (smtp.to(email).length ? smtp.to(email) : null), 10_000, 'reset email');
    const link = `${SITE_URL}/account/reset-password#token=${await emailedToken(mail!.decoded, '/account/reset-password', 'shopper-password-reset', id)}`;
    expect(mail!.decoded).toContain(`Subject: Reset your ${SHOP.name} password`);
    expect(mail!.decoded).toContain('Hi Robin,');
    expect(mail!.decoded).toContain(`Choose a new password here: ${link}`);
    expect(mail!.decoded).toContain(`<a href="${link}"`);
    expect(mail!.decoded).toContain('The link works once, for 60 minutes; when your password changes, every device signed in to your account is signed out.');
    expect(await emailLog('shopper-password-reset', id)).toMatchObject({ status: 'sent', toAddress: email });
  });

  it('sends nothing for a link already spent or expired when the job runs', async () => {
    const email = 'too-late@example.com';
    const orderId = await placeOrder(tdb.db, { customerEmail: email, outbox: false });
    const expired = await requestLink({ purpose: 'order_access', email, orderId, expiresAt: new Date(Date.now() - 1000) });
    const [user] = await tdb.db.insert(tables.users).values({ email, firstName: 'Late', passwordHash: 'x' }).returning({ id: tables.users.id });
    const spent = await tdb.db.transaction(async (tx) => {
      const row = await insertShopperToken(tx, { purpose: 'password_reset', email, userId: user!.id, expiresAt: new Date(Date.now() + 3_600_000) });
      await tx.update(tables.shopperTokens).set({ usedAt: new Date() }).where(eq(tables.shopperTokens.id, row.id));
      await recordOutbox(tx, 'shopper.password-reset-requested', { tokenId: row.id });
      return row;
    });
    const skipped = async (name: string, tokenId: string) =>
      waitFor(async () => (await runtime.queues.emails.getJobs(['completed'])).find((j) => j.name === name && j.data.tokenId === tokenId), 10_000, `${name} job`);
    expect((await skipped('order-link', expired.id)).returnvalue).toEqual({ outcome: 'skipped', reason: 'order link used or expired' });
    expect((await skipped('shopper-password-reset', spent.id)).returnvalue).toEqual({ outcome: 'skipped', reason: 'reset used or expired' });
    expect(smtp.to(email)).toEqual([]);
  });

  it('housekeeping deletes links that expired more than the retention ago, and keeps the rest', async () => {
    const email = 'housekeeping-links@example.com';
    const orderId = await placeOrder(tdb.db, { customerEmail: email, outbox: false });
    const day = 24 * 3_600_000;
    const insert = (expiresAt: Date) => insertShopperToken(tdb.db, { purpose: 'order_access', email, orderId, expiresAt });
    const old = await insert(new Date(Date.now() - 8 * day));
    const recent = await insert(new Date(Date.now() - 2 * day));
    const open = await insert(new Date(Date.now() + day));
    const housekeeping = createHousekeepingProcessor({ db: tdb.db, log: createLogger('hk-test', 'silent'), retentionDays: 7, ledgerRetentionDays: 90, exportFiles: localFileStorage(tempDir('hk-exports')) });
    const result = await housekeeping({ id: 'hk-shopper-tokens' } as Job);
    expect(result.shopperTokensDeleted).toBeGreaterThanOrEqual(1);
    const left = (await tdb.db.select({ id: tables.shopperTokens.id }).from(tables.shopperTokens).where(eq(tables.shopperTokens.email, email))).map((r) => r.id);
    expect(left.sort()).toEqual([recent.id, open.id].sort());
    expect(left).not.toContain(old.id);
  });

  it('housekeeping deletes staff sessions once expired, and staff links and plans’ card-update links that expired more than the retention ago', async () => {
    const day = 24 * 3_600_000;
    const [member] = await tdb.db.insert(tables.staff).values({ email: 'housekeeping-staff@example.com', name: 'Kept Tidy', role: 'support', passwordHash: 'x' }).returning({ id: tables.staff.id });
    const staffId = member!.id;
    const session = (hash: string, expiresAt: Date) => ({ tokenHash: hash, staffId, expiresAt });
    await tdb.db.insert(tables.staffSessions).values([session(`hk-expired-${staffId}`, new Date(Date.now() - 1000)), session(`hk-live-${staffId}`, new Date(Date.now() + day))]);
    const token = (hash: string, expiresAt: Date) => ({ tokenHash: hash, purpose: 'password_reset' as const, email: 'housekeeping-staff@example.com', staffId, expiresAt });
    await tdb.db.insert(tables.staffTokens).values([token(`hk-old-${staffId}`, new Date(Date.now() - 8 * day)), token(`hk-recent-${staffId}`, new Date(Date.now() - 2 * day))]);

    const [plan] = await tdb.db
      .insert(tables.subscriptions)
      .values({ customerEmail: 'housekeeping-plan@example.com', customerName: 'Plan Tidy', items: [], amount: 1000, nextBillingDate: new Date(Date.now() + day) })
      .returning({ id: tables.subscriptions.id });
    const link = (hash: string, expiresAt: Date) => ({ tokenHash: hash, subscriptionId: plan!.id, email: 'housekeeping-plan@example.com', expiresAt });
    await tdb.db.insert(tables.planCardLinks).values([link(`hk-old-link-${staffId}`, new Date(Date.now() - 8 * day)), link(`hk-open-link-${staffId}`, new Date(Date.now() + day))]);

    const housekeeping = createHousekeepingProcessor({ db: tdb.db, log: createLogger('hk-test', 'silent'), retentionDays: 7, ledgerRetentionDays: 90, exportFiles: localFileStorage(tempDir('hk-exports')) });
    const result = await housekeeping({ id: 'hk-staff' } as Job);
    expect(result.staffSessionsDeleted).toBeGreaterThanOrEqual(1);
    expect(result.staffTokensDeleted).toBeGreaterThanOrEqual(1);
    const sessions = await tdb.db.select({ hash: tables.staffSessions.tokenHash }).from(tables.staffSessions).where(eq(tables.staffSessions.staffId, staffId));
    expect(sessions.map((r) => r.hash)).toEqual([`hk-live-${staffId}`]);
    const tokens = await tdb.db.select({ hash: tables.staffTokens.tokenHash }).from(tables.staffTokens).where(eq(tables.staffTokens.staffId, staffId));
    expect(tokens.map((r) => r.hash)).toEqual([`hk-recent-${staffId}`]);
    const links = await tdb.db.select({ hash: tables.planCardLinks.tokenHash }).from(tables.planCardLinks).where(eq(tables.planCardLinks.subscriptionId, plan!.id));
    expect(links.map((r) => r.hash)).toEqual([`hk-open-link-${staffId}`]);
  });

  it('housekeeping deletes sign-in codes that expired more than the retention ago, and keeps the rest', async () => {
    const email = 'housekeeping-codes@example.com';
    const day = 24 * 3_600_000;
    const code = (hash: string, expiresAt: Date) => ({ email, codeHash: hash, expiresAt });
    await tdb.db.insert(tables.signInCodes).values([code('hk-old-code', new Date(Date.now() - 8 * day)), code('hk-recent-code', new Date(Date.now() - 2 * day)), code('hk-open-code', new Date(Date.now() + 600_000))]);
    const housekeeping = createHousekeepingProcessor({ db: tdb.db, log: createLogger('hk-test', 'silent'), retentionDays: 7, ledgerRetentionDays: 90, exportFiles: localFileStorage(tempDir('hk-exports')) });
    expect((await housekeeping({ id: 'hk-codes' } as Job)).signInCodesDeleted).toBeGreaterThanOrEqual(1);
    const left = await tdb.db.select({ hash: tables.signInCodes.codeHash }).from(tables.signInCodes).where(eq(tables.signInCodes.email, email));
    expect(left.map((r) => r.hash).sort()).toEqual(['hk-open-code', 'hk-recent-code']);
  });
});
