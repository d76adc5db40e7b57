import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { SHOP } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { recordOutbox } from '@nh/server/queries/outbox';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';
import { createMailer } from '../src/emails/mail/transport';

const SITE_URL = 'https://shop.example.test';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;

const logRow = async (kind: string, subjectId: string) =>
  (await tdb.db.select().from(tables.emailLog).where(and(eq(tables.emailLog.kind, kind), eq(tables.emailLog.subjectId, subjectId))))[0];

/** As the admin API does on the change into shipped: the order's new status and its outbox row, one transaction. */
async function markShipped(orderId: string, fields: { carrier: string | null; trackingNumber: string | null }): Promise<void> {
  await tdb.db.transaction(async (tx) => {
    await tx.update(tables.orders).set({ status: 'shipped', ...fields }).where(eq(tables.orders.id, orderId));
    await recordOutbox(tx, 'order.shipped', { orderId });
  });
}

/** A header field's value, unfolded (RFC 5322: long header lines are folded). */
const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.replace(/\r?\n(?=[ \t])/g, ''))?.[1];

const jobResult = async (name: string, data: Record<string, unknown>, jobId: string) => {
  const job = await runtime.queues.emails.add(name, data, { jobId });
  await waitFor(async () => (await job.getState()) === 'completed', 10_000, jobId);
  return (await runtime.queues.emails.getJob(job.id!))?.returnvalue;
};

async function subscribe(email: string, unsubscribedAt: Date | null = null): Promise<number> {
  return tdb.db.transaction(async (tx) => {
    const [sub] = await tx.insert(tables.newsletterSubscribers).values({ email, unsubscribedAt }).returning();
    await recordOutbox(tx, 'newsletter.subscribed', { subscriberId: sub!.id, email });
    return sub!.id;
  });
}

beforeAll(async () => {
  tdb = await createTestDatabase('mail');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'mail', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', EMAIL_BACKOFF_MS: '50', SHOP_SITE_URL: SITE_URL }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

describe('emails over SMTP', () => {
  it('keeps its SMTP connections open: six messages, one after another, travel over one connection; after a refused recipient the next message still goes', async () => {
    const server = await new TestSmtpServer().start();
    server.rejectPermanently = /^refused@/;
    const mailer = createMailer({ smtpUrl: server.url, smtpConnections: 2, outboxDir: '/nonexistent', from: 'shop@example.com' });
    try {
      for (let i = 0; i < 6; i++) await mailer.send({ to: `pooled${i}@example.com`, subject: `n${i}`, text: 'x', html: '<p>x</p>' });
      expect(server.received.map((m) => m.to[0])).toEqual([0, 1, 2, 3, 4, 5].map((i) => `pooled${i}@example.com`));
      expect(server.connections).toBe(1);
      await expect(mailer.send({ to: 'refused@example.com', subject: 'no', text: 'x', html: '<p>x</p>' })).rejects.toMatchObject({ responseCode: 550 });
      await mailer.send({ to: 'after@example.com', subject: 'after', text: 'x', html: '<p>x</p>' });
      expect(server.received.at(-1)!.to).toEqual(['after@example.com']);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('sends an order confirmation with lines, totals, shop name and support contact, in text and HTML', async () => {
    const orderId = await placeOrder(tdb.db, {
      customerEmail: 'confirm@example.com',
      customerName: 'Casey Confirm',
      items: [sampleLine({ quantity: 2, price: '12.99', productName: 'Flush Toilet Cleaner' }), sampleLine({ quantity: 1, price: '14.99', productName: 'Dish <Pods>' })],
    });
    const [mail] = await waitFor(() => (smtp.to('confirm@example.com').length ? smtp.to('confirm@example.com') : null), 10_000, 'confirmation');
    expect(mail!.decoded).toContain(`Subject: ${SHOP.name} order confirmation #${orderId.slice(0, 8)}`);
    expect(mail!.decoded).toMatch(/multipart\/alternative/);
    expect(mail!.decoded).toContain('text/plain');
    expect(mail!.decoded).toContain('text/html');
    expect(mail!.decoded).toContain('2 x Flush Toilet Cleaner @ $12.99 = $25.98');
    expect(mail!.decoded).toContain('Dish &lt;Pods&gt;');
    expect(mail!.decoded).toContain('Subtotal: $40.97');
    expect(mail!.decoded).toContain('Shipping: $9.99');
    expect(mail!.decoded).toMatch(/Total: \$\d+\.\d\d/);
    expect(mail!.decoded).toContain(SHOP.supportEmail);
    expect(mail!.decoded).toContain(SHOP.supportPhone);
    expect(mail!.from).toBe(SHOP.supportEmail);
    const row = await waitFor(async () => ((await logRow('order-confirmation', orderId))?.status === 'sent' ? logRow('order-confirmation', orderId) : null));
    expect(row).toMatchObject({ toAddress: 'confirm@example.com', status: 'sent' });
    expect(row.messageId).toBeTruthy();
  });

  it('shows the Subscribe & Save discount and the promo code on their own lines (issue 19), and an old unsplit discount as one line', async () => {
    // $32.94 with Subscribe & Save (15% = $4.94) and WELCOME10 (10% of $28.00 = $2.80): $7.74 off, in two lines.
    const orderId = await placeOrder(tdb.db, {
      customerEmail: 'two-discounts@example.com',
      items: [sampleLine({ quantity: 1, price: '32.94', productName: 'Starter Kit' })],
      promoCode: 'WELCOME10',
      outbox: false,
    });
    const unsplitId = await placeOrder(tdb.db, { customerEmail: 'old-discount@example.com', items: [sampleLine({ quantity: 1, price: '32.94' })], promoCode: 'GONE', outbox: false });
    await tdb.db.transaction(async (tx) => {
      await tx.update(tables.orders).set({ discount: 774, subscribeDiscount: 494, promoDiscount: 280 }).where(eq(tables.orders.id, orderId));
      // From before the parts were kept, and the migration could not split it.
      await tx.update(tables.orders).set({ discount: 500 }).where(eq(tables.orders.id, unsplitId));
      await recordOutbox(tx, 'order.placed', { orderId });
      await recordOutbox(tx, 'order.placed', { orderId: unsplitId });
    });
    const [mail] = await waitFor(() => (smtp.to('two-discounts@example.com').length ? smtp.to('two-discounts@example.com') : null), 10_000, 'confirmation');
    expect(mail!.decoded).toMatch(/Subtotal: \$32\.94\r?\n {2}Subscribe & Save \(15%\): -\$4\.94\r?\n {2}Discount \(WELCOME10\): -\$2\.80\r?\n {2}Shipping:/);
    expect(mail!.decoded).toContain('Subscribe &amp; Save (15%)</td><td align="right">-$4.94</td>');
    expect(mail!.decoded).toContain('Discount (WELCOME10)</td><td align="right">-$2.80</td>');
    expect(mail!.decoded).not.toContain('-$7.74');
    const [old] = await waitFor(() => (smtp.to('old-discount@example.com').length ? smtp.to('old-discount@example.com') : null), 10_000, 'old confirmation');
    expect(old!.decoded).toMatch(/Subtotal: \$32\.94\r?\n {2}Discount: -\$5\.00\r?\n {2}Shipping:/);
  });

  it('sends each email once per (kind, subject) even when the job runs again', async () => {
    const orderId = await placeOrder(tdb.db, { customerEmail: 'once@example.com' });
    await waitFor(() => smtp.to('once@example.com').length === 1, 10_000, 'first send');
    const job = await runtime.queues.emails.add('order-confirmation', { orderId }, { jobId: `again-${orderId}` });
    await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'second job');
    expect((await runtime.queues.emails.getJob(job.id!))?.returnvalue).toEqual({ outcome: 'skipped', reason: 'already sent' });
    expect(smtp.to('once@example.com')).toHaveLength(1);
  });

  it('welcomes a subscriber with a unique single-use 15% code, created once', async () => {
    const subscriberId = await subscribe('welcome@example.com');
    const [mail] = await waitFor(() => (smtp.to('welcome@example.com').length ? smtp.to('welcome@example.com') : null), 10_000, 'welcome');
    const code = /WELCOME-[A-Z2-9]{10}\b/.exec(mail!.decoded)?.[0];
    expect(code).toBeTruthy();
    expect(mail!.decoded).toContain('15% off');
    const promos = await tdb.db.select().from(tables.promoCodes).where(like(tables.promoCodes.code, 'WELCOME-%'));
    expect(promos.filter((p) => p.issuedFor === `newsletter:${subscriberId}`)).toEqual([
      expect.objectContaining({ code, singleUse: true, discountType: 'percentage', discountValue: 15, isActive: true, redeemedAt: null }),
    ]);

    // Run the welcome again: same code, no second promo code, no second email.
    const job = await runtime.queues.emails.add('newsletter-welcome', { subscriberId }, { jobId: `again-welcome-${subscriberId}` });
    await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'second welcome');
    expect(smtp.to('welcome@example.com')).toHaveLength(1);
    const again = await tdb.db.select().from(tables.promoCodes).where(eq(tables.promoCodes.issuedFor, `newsletter:${subscriberId}`));
    expect(again).toHaveLength(1);

    const otherId = await subscribe('welcome2@example.com');
    const [other] = await waitFor(() => (smtp.to('welcome2@example.com').length ? smtp.to('welcome2@example.com') : null), 10_000, 'second subscriber');
    expect(/WELCOME-[A-Z2-9]{10}\b/.exec(other!.decoded)?.[0]).not.toBe(code);
    expect(otherId).not.toBe(subscriberId);
  });

  it('gives the welcome email a one-click unsubscribe: RFC 8058 headers and a link to the page, with the subscriber token', async () => {
    const subscriberId = await subscribe('letters@example.com');
    const [mail] = await waitFor(() => (smtp.to('letters@example.com').length ? smtp.to('letters@example.com') : null), 10_000, 'welcome');
    const [{ token }] = (await tdb.db
      .select({ token: tables.newsletterSubscribers.unsubscribeToken })
      .from(tables.newsletterSubscribers)
      .where(eq(tables.newsletterSubscribers.id, subscriberId))) as [{ token: string }];
    expect(headerOf(mail!.raw, 'List-Unsubscribe')).toBe(`<${SITE_URL}/api/newsletter/unsubscribe/${token}>`);
    expect(headerOf(mail!.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail!.decoded).toContain(`unsubscribe here: ${SITE_URL}/unsubscribe/${token}`);
    expect(mail!.decoded).toContain(`<a href="${SITE_URL}/unsubscribe/${token}">Unsubscribe</a>`);
  });

  it('sends no marketing email to an address that has unsubscribed, and logs it; order emails still go', async () => {
    const email = 'left@example.com';
    const subscriberId = await subscribe(email, new Date());
    expect(await jobResult('newsletter-welcome', { subscriberId }, `left-welcome-${subscriberId}`)).toEqual({ outcome: 'skipped', reason: 'unsubscribed' });
    expect(await logRow('newsletter-welcome', String(subscriberId))).toMatchObject({ toAddress: email, status: 'skipped', error: 'unsubscribed', sentAt: null });

    const orderId = await placeOrder(tdb.db, { customerEmail: email });
    await waitFor(() => smtp.to(email).length === 1, 10_000, 'order confirmation');
    expect(smtp.to(email)[0]!.decoded).toContain(`order confirmation #${orderId.slice(0, 8)}`);
    expect(headerOf(smtp.to(email)[0]!.raw, 'List-Unsubscribe')).toBeUndefined();

    // Signed up again: the welcome it never had goes out on the next run.
    await tdb.db.update(tables.newsletterSubscribers).set({ unsubscribedAt: null }).where(eq(tables.newsletterSubscribers.id, subscriberId));
    expect(await jobResult('newsletter-welcome', { subscriberId }, `back-welcome-${subscriberId}`)).toMatchObject({ outcome: 'sent' });
    expect(smtp.to(email).map((m) => /^Subject: (.*)$/m.exec(m.decoded)?.[1])).toEqual([expect.stringContaining('order confirmation'), expect.stringContaining('Welcome to')]);
  });

  it('welcomes a new Subscribe & Save plan once: plan, items, per-delivery amount and next billing date', async () => {
    const nextBillingDate = new Date('2031-03-05T14:30:00Z');
    const subscriptionId = await tdb.db.transaction(async (tx) => {
      const [sub] = await tx
        .insert(tables.subscriptions)
        .values({
          customerEmail: 'plan@example.com',
          customerName: 'Pat Plan',
          items: [sampleLine({ quantity: 2, price: '12.99', productName: 'Flush Toilet Cleaner' }), sampleLine({ productId: 2, quantity: 1, price: '14.99', productName: 'Dish <Pods>' })],
          amount: 3767,
          nextBillingDate,
          shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
        })
        .returning({ id: tables.subscriptions.id });
      await recordOutbox(tx, 'subscription.created', { subscriptionId: sub!.id });
      return sub!.id;
    });
    const [mail] = await waitFor(() => (smtp.to('plan@example.com').length ? smtp.to('plan@example.com') : null), 10_000, 'plan welcome');
    expect(mail!.decoded).toContain(`Subject: Your ${SHOP.name} Subscribe & Save plan is set up`);
    expect(mail!.decoded).toContain('delivers every month with 15% off and free shipping');
    expect(mail!.decoded).toContain('2 x Flush Toilet Cleaner @ $12.99');
    expect(mail!.decoded).toContain('Dish &lt;Pods&gt;');
    expect(mail!.decoded).toContain('Each delivery: $37.67');
    expect(mail!.decoded).toContain('Next billing date: March 5, 2031');
    expect(mail!.decoded).toContain('text/html');
    expect(mail!.decoded).toContain(SHOP.supportEmail);
    const row = await waitFor(async () => ((await logRow('subscription-welcome', subscriptionId))?.status === 'sent' ? logRow('subscription-welcome', subscriptionId) : null));
    expect(row).toMatchObject({ toAddress: 'plan@example.com', status: 'sent' });

    const job = await runtime.queues.emails.add('subscription-welcome', { subscriptionId }, { jobId: `again-plan-${subscriptionId}` });
    await waitFor(async () => (await job.getState()) === 'completed', 10_000, 'second plan welcome');
    expect((await runtime.queues.emails.getJob(job.id!))?.returnvalue).toEqual({ outcome: 'skipped', reason: 'already sent' });
    expect(smtp.to('plan@example.com')).toHaveLength(1);
  });

  it('sends a shipping notice once: order number, items, carrier, tracking number and link, address, support', async () => {
    const orderId = await placeOrder(tdb.db, {
      customerEmail: 'shipped@example.com',
      customerName: 'Sky Shipped',
      items: [sampleLine({ quantity: 2, productName: 'Flush Toilet Cleaner' }), sampleLine({ productId: 2, quantity: 1, price: '14.99', productName: 'Dish <Pods>' })],
      outbox: false,
    });
    await markShipped(orderId, { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
    const [mail] = await waitFor(() => (smtp.to('shipped@example.com').length ? smtp.to('shipped@example.com') : null), 10_000, 'shipping notice');
    expect(mail!.decoded).toContain(`Subject: Your ${SHOP.name} order #${orderId.slice(0, 8)} has shipped`);
    expect(mail!.decoded).toContain('text/plain');
    expect(mail!.decoded).toContain('text/html');
    expect(mail!.decoded).toContain('2 x Flush Toilet Cleaner');
    expect(mail!.decoded).toContain('1 x Dish <Pods>');
    expect(mail!.decoded).toContain('Dish &lt;Pods&gt;');
    expect(mail!.decoded).toContain('Carrier: UPS');
    expect(mail!.decoded).toContain('Tracking number: 1Z999AA10123456784');
    expect(mail!.decoded).toContain('Track your parcel: https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(mail!.decoded).toContain('<a href="https://www.ups.com/track?tracknum=1Z999AA10123456784"');
    expect(mail!.decoded).toContain('1 Main St');
    expect(mail!.decoded).toContain('Springfield, IL 62701');
    expect(mail!.decoded).toContain(`Questions? ${SHOP.supportEmail} · ${SHOP.supportPhone}`);
    expect(mail!.decoded).toContain(`<a href="mailto:${SHOP.supportEmail}">`);
    const row = await waitFor(async () => ((await logRow('order-shipped', orderId))?.status === 'sent' ? logRow('order-shipped', orderId) : null), 5000, 'email log');
    expect(row).toMatchObject({ toAddress: 'shipped@example.com', status: 'sent' });

    // Shipped again (set back and forth, a second outbox row) or the job run again: still one email.
    await markShipped(orderId, { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });
    expect(await jobResult('order-shipped', { orderId }, `again-shipped-${orderId}`)).toEqual({ outcome: 'skipped', reason: 'already sent' });
    const second = await waitFor(
      async () => (await runtime.queues.emails.getJobs(['completed'])).find((j) => j.name === 'order-shipped' && j.data.orderId === orderId && j.id!.startsWith('outbox-') && j.returnvalue?.outcome === 'skipped'),
      10_000,
      'second outbox job',
    );
    expect(second.returnvalue).toEqual({ outcome: 'skipped', reason: 'already sent' });
    expect(smtp.to('shipped@example.com')).toHaveLength(1);
  });

  it('shipping notice without a known carrier: the number but no link; without tracking: neither', async () => {
    const noCarrier = await placeOrder(tdb.db, { customerEmail: 'ship-nocarrier@example.com', outbox: false });
    await markShipped(noCarrier, { carrier: null, trackingNumber: 'LOCAL-42' });
    const [first] = await waitFor(() => (smtp.to('ship-nocarrier@example.com').length ? smtp.to('ship-nocarrier@example.com') : null), 10_000, 'no-carrier notice');
    expect(first!.decoded).toContain('Tracking number: LOCAL-42');
    expect(first!.decoded).not.toContain('Carrier:');
    expect(first!.decoded).not.toContain('Track your parcel');

    const noTracking = await placeOrder(tdb.db, { customerEmail: 'ship-notracking@example.com', outbox: false });
    await markShipped(noTracking, { carrier: null, trackingNumber: null });
    const [second] = await waitFor(() => (smtp.to('ship-notracking@example.com').length ? smtp.to('ship-notracking@example.com') : null), 10_000, 'no-tracking notice');
    expect(second!.decoded).toContain(`order #${noTracking.slice(0, 8)} is on its way`);
    expect(second!.decoded).not.toContain('Tracking number');
    expect(second!.decoded).not.toContain('Track your parcel');
  });

  it('sends no shipping notice for an order that is not shipped when the job runs', async () => {
    const orderId = await placeOrder(tdb.db, { customerEmail: 'ship-undone@example.com', outbox: false });
    expect(await jobResult('order-shipped', { orderId }, `undone-${orderId}`)).toEqual({ outcome: 'skipped', reason: 'order is processing' });
    expect(await logRow('order-shipped', orderId)).toBeUndefined();
    expect(smtp.to('ship-undone@example.com')).toHaveLength(0);
  });

  it('fails a permanent SMTP rejection (5xx) at once and records it', async () => {
    smtp.rejectPermanently = /^bounce@/;
    try {
      const orderId = await placeOrder(tdb.db, { customerEmail: 'bounce@example.com' });
      const row = await waitFor(async () => ((await logRow('order-confirmation', orderId))?.status === 'failed' ? logRow('order-confirmation', orderId) : null), 10_000, 'failed log');
      expect(row.error).toContain('550');
      const failed = await waitFor(async () => (await runtime.queues.emails.getJobs(['failed'])).find((j) => j.data.orderId === orderId), 5000, 'failed job');
      expect(failed.attemptsMade).toBe(1);
      expect(smtp.to('bounce@example.com')).toHaveLength(0);
    } finally {
      smtp.rejectPermanently = null;
    }
  });

  it('retries a temporary SMTP failure (4xx) and sends once it clears', async () => {
    smtp.rejectTemporarily = /^later@/;
    const orderId = await placeOrder(tdb.db, { customerEmail: 'later@example.com' });
    await waitFor(async () => (await logRow('order-confirmation', orderId))?.error?.includes('451'), 10_000, 'temporary failure');
    smtp.rejectTemporarily = null;
    await waitFor(() => smtp.to('later@example.com').length === 1, 15_000, 'sent after retry');
    // The log row is marked sent right after the SMTP server's answer.
    const row = await waitFor(async () => ((await logRow('order-confirmation', orderId))?.status === 'sent' ? logRow('order-confirmation', orderId) : null), 5000, 'sent row');
    expect(row).toMatchObject({ status: 'sent', error: null });
    expect(smtp.to('later@example.com')).toHaveLength(1);
  });
});

describe('emails without SMTP', () => {
  it('writes .eml files to the local mail outbox folder', async () => {
    const other = await createTestDatabase('mailbox');
    const config = testWorkerConfig(other.url, 'mailbox', { WORKER_QUEUES: 'emails' });
    const rt = await startTestWorkers(config);
    try {
      await placeOrder(other.db, { customerEmail: 'folder@example.com' });
      const emlFiles = () => (fs.existsSync(config.MAIL_OUTBOX_DIR) ? fs.readdirSync(config.MAIL_OUTBOX_DIR).filter((f) => f.endsWith('.eml')) : []);
      const files = await waitFor(() => (emlFiles().length > 0 ? emlFiles() : null), 10_000, '.eml file');
      expect(files).toHaveLength(1);
      expect(files[0]).toContain('folder@example.com');
      const content = fs.readFileSync(`${config.MAIL_OUTBOX_DIR}/${files[0]}`, 'utf8');
      expect(content).toContain('To: folder@example.com');
      expect(content).toContain('order confirmation');
    } finally {
      await rt.close(1000);
      await other.drop();
    }
  });
});
