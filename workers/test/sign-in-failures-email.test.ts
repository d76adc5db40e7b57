/**
 * The sign-in failures email (issue 19) over the local SMTP test server, made from its outbox row as the
 * API's sign-in guard writes it: the staff and the shopper wording with their own reset page, sent once
 * per alert, and nothing for a disabled staff account or a shopper without a password.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { insertStaff } from '@nh/server/queries/staff';
import { recordOutbox } from '@nh/server/queries/outbox';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';

const SITE_URL = 'https://shop.example.test';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;

beforeAll(async () => {
  tdb = await createTestDatabase('sign-in-mail');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(
    testWorkerConfig(tdb.url, 'sign-in-mail', {
      SMTP_URL: smtp.url,
      WORKER_QUEUES: 'emails',
      EMAIL_BACKOFF_MS: '50',
      SHOP_SITE_URL: SITE_URL,
    }),
  );
});
afterAll(async () => {
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

const alert = (account: 'staff' | 'shopper', accountId: string, failures = 10) => {
  const alertId = randomUUID();
  return recordOutbox(tdb.db, 'account.sign-in-failures', { account, accountId, alertId, failures }).then(() => alertId);
};
const mailTo = (email: string) => waitFor(() => (smtp.to(email).length ? smtp.to(email) : null), 10_000, `email to ${email}`);
const completed = (alertId: string) =>
  waitFor(
    async () =>
      (await runtime.queues.emails.getJobs(['completed'])).find((j) => j.name === 'sign-in-failures' && j.data.alertId === alertId),
    10_000,
    'sign-in-failures job',
  );

describe('the sign-in failures email', () => {
  it('tells a shopper how many wrong passwords were tried, that known devices sign in as usual, and where to choose a new password', async () => {
    const email = 'guessed-shopper@example.com';
    const [user] = await tdb.db
      .insert(tables.users)
      .values({ email, firstName: 'Robin', lastName: 'Guessed', passwordHash: 'x' })
      .returning({ id: tables.users.id });
    await alert('shopper', user!.id, 12);
    const [mail] = await mailTo(email);
    expect(mail!.decoded).toContain(`Subject: Someone is trying to sign in to your ${SHOP.name} account`);
    expect(mail!.decoded).toContain('Hi Robin,');
    expect(mail!.decoded).toContain(`with a wrong password 12 times in the last 15 minutes. Those tries were refused.`);
    expect(mail!.decoded).toContain('On a computer or phone you have signed in with before, you sign in as usual');
    expect(mail!.decoded).toContain(`Choose a new password: ${SITE_URL}/account/forgot-password`);
    expect(mail!.decoded).toContain(`<a href="${SITE_URL}/account/forgot-password"`);
    expect(mail!.decoded).toContain('We send this email at most once every 15 minutes.');
  });

  it("tells a staff member about their back office account, with the back office's reset page; once per alert", async () => {
    const email = `guessed-owner-${randomUUID().slice(0, 6)}@staff.test`;
    const member = await insertStaff(tdb.db, { email, name: 'Olive Owner', role: 'owner', passwordHash: 'x' });
    const alertId = await alert('staff', member.id);
    const [mail] = await mailTo(email);
    // A long Subject header is folded onto two lines.
    expect(mail!.decoded.replace(/\r?\n[ \t]+/g, ' ')).toContain(
      `Subject: Someone is trying to sign in to your ${SHOP.name} back office account`,
    );
    expect(mail!.decoded).toContain('Hi Olive Owner,');
    expect(mail!.decoded).toContain(`Choose a new password: ${SITE_URL}/admin/forgot-password`);
    await completed(alertId);
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('sends nothing to a disabled staff account or a shopper without a password', async () => {
    const staffEmail = `disabled-${randomUUID().slice(0, 6)}@staff.test`;
    const member = await insertStaff(tdb.db, { email: staffEmail, name: 'Gone', role: 'support', passwordHash: 'x' });
    await tdb.db.update(tables.staff).set({ disabledAt: new Date() }).where(eq(tables.staff.id, member.id));
    const shopperEmail = 'no-password@example.com';
    const [user] = await tdb.db
      .insert(tables.users)
      .values({ email: shopperEmail, firstName: 'Outside' })
      .returning({ id: tables.users.id });
    const skipped = [await alert('staff', member.id), await alert('shopper', user!.id)];
    expect((await completed(skipped[0]!)).returnvalue).toEqual({ outcome: 'skipped', reason: 'staff account gone or disabled' });
    expect((await completed(skipped[1]!)).returnvalue).toEqual({ outcome: 'skipped', reason: 'account gone or without a password' });
    expect(smtp.to(staffEmail)).toEqual([]);
    expect(smtp.to(shopperEmail)).toEqual([]);
  });
});
