/**
 * The refund email (issue 23): the API writes an `order.refund-notice` outbox row with an approved refund
 * when staff leave "Notify the customer" ticked; the relay makes it the `order-refunded` email job, which
 * says what was given back, where to, the items and shipping of a refund by line, and what is left. Sent
 * once per refund; a refund not given (declined) sends nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { recordOutbox } from '@nh/server/queries/outbox';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, placeOrder, sampleLine, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let runtime: WorkerRuntime;

beforeAll(async () => {
  tdb = await createTestDatabase('refund-mail');
  smtp = await new TestSmtpServer().start();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'refund-mail', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', EMAIL_BACKOFF_MS: '50', SHOP_SITE_URL: 'https://shop.example.test' }));
});
afterAll(async () => {
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

/** The order's charge and a refund row as the API records them, with the notice's outbox row when approved. */
async function refundOf(orderId: string, r: { amount: number; status: 'approved' | 'declined'; lines?: tables.RefundLinePart[]; shipping?: number }): Promise<string> {
  return tdb.db.transaction(async (tx) => {
    const [order] = await tx.select({ total: tables.orders.total }).from(tables.orders).where(eq(tables.orders.id, orderId));
    let [charge] = await tx.select({ id: tables.paymentTransactions.id }).from(tables.paymentTransactions).where(and(eq(tables.paymentTransactions.orderId, orderId), eq(tables.paymentTransactions.kind, 'charge')));
    if (!charge) [charge] = await tx.insert(tables.paymentTransactions).values({ orderId, amount: order!.total, status: 'approved', kind: 'charge', cardLastFour: '4242', authnetTransactionId: '6001' }).returning({ id: tables.paymentTransactions.id });
    const [row] = await tx
      .insert(tables.paymentTransactions)
      .values({ orderId, parentId: charge!.id, kind: 'refund', amount: r.amount, status: r.status, cardLastFour: '4242', reason: 'Leaking', idempotencyKey: randomUUID(), refundLines: r.lines ?? null, refundShipping: r.shipping ?? 0 })
      .returning({ id: tables.paymentTransactions.id });
    await recordOutbox(tx, 'order.refund-notice', { orderId, paymentId: row!.id });
    return row!.id;
  });
}

describe('the refund email', () => {
  it('says what was refunded to which card, the items and shipping, and what remains paid', async () => {
    const email = `refund-${randomUUID().slice(0, 6)}@example.com`;
    const orderId = await placeOrder(tdb.db, { customerEmail: email, customerName: 'Rae Refund', items: [sampleLine({ quantity: 2 }), sampleLine({ productName: 'Glass Spray', quantity: 1 })], outbox: false });
    await refundOf(orderId, { amount: 2402, status: 'approved', lines: [{ line: 1, quantity: 1, amount: 1403, restock: false }], shipping: 999 });
    const [mail] = await waitFor(() => (smtp.to(email).length ? smtp.to(email) : null), 10_000, 'refund email');
    const number = orderId.slice(0, 8);
    expect(mail!.decoded).toContain(`Subject: Your Nurture Home refund for order #${number}`);
    expect(mail!.decoded).toContain('Hi Rae Refund,');
    expect(mail!.decoded).toContain('We have refunded $24.02 to the card ending 4242');
    expect(mail!.decoded).toContain('1 x Glass Spray');
    expect(mail!.decoded).toContain('Shipping ($9.99)');
    expect(mail!.decoded).toMatch(/In all, \$24\.02 of your \$\d+\.\d\d order has been refunded; \$\d+\.\d\d remains paid\./);
    const log = await waitFor(async () => (await tdb.db.select().from(tables.emailLog).where(and(eq(tables.emailLog.kind, 'order-refunded'), eq(tables.emailLog.status, 'sent'))))[0], 10_000, 'email log');
    expect(log).toMatchObject({ status: 'sent', toAddress: email });
    expect(log.subjectId.startsWith(`${orderId}:refund:`)).toBe(true);
  });

  it('sends nothing for a refund the payment service declined', async () => {
    const email = `declined-${randomUUID().slice(0, 6)}@example.com`;
    const orderId = await placeOrder(tdb.db, { customerEmail: email, items: [sampleLine()], outbox: false });
    await refundOf(orderId, { amount: 500, status: 'declined' });
    // A later approved refund's email goes out: the declined one's job (queued before it) was handled by then.
    const later = `later-${randomUUID().slice(0, 6)}@example.com`;
    await refundOf(await placeOrder(tdb.db, { customerEmail: later, items: [sampleLine()], outbox: false }), { amount: 500, status: 'approved' });
    await waitFor(() => (smtp.to(later).length ? true : null), 10_000, 'later refund email');
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.to(email)).toEqual([]);
  });
});
