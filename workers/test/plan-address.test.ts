/**
 * A plan's new delivery address (issue 21, "Address") as the workers apply it: the shopper changes it
 * through the real API, and the next renewal's order, the NetSuite sales order (the local NetSuite
 * stand-in) and the shipping notice carry it; the change's confirmation names it. A change by staff is
 * emailed in the customer's words with the new address.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { centsToDecimal, pricePlan, SHOP } from '@nh/shared';
import * as tables from '@nh/server/db/schema';
import { findOrderForShippingNotice } from '@nh/server/queries/orders';
import type { LocalSandboxGateway } from '@nh/server/payments';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs } from '../../api/test/support/staff';
import { orderShippedEmail } from '../src/emails/order-shipped';
import { netsuiteExternalIds } from '../src/erp-sync/netsuite/client';
import type { WorkerRuntime } from '../src/runtime';
import { startNetSuiteStub, type NetSuiteStub } from './support/netsuite-stub';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import { renewNow } from './support/renew';

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let stub: NetSuiteStub;
let runtime: WorkerRuntime;
let api: TestApi;

beforeAll(async () => {
  tdb = await createTestDatabase('address');
  smtp = await new TestSmtpServer().start();
  stub = await startNetSuiteStub();
  runtime = await startTestWorkers(testWorkerConfig(tdb.url, 'address', { ...stub.env(), SMTP_URL: smtp.url, WORKER_QUEUES: 'renewals,emails,erp-sync', EMAIL_BACKOFF_MS: '50' }));
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: runtime.config.QUEUE_PREFIX });
});
afterAll(async () => {
  await api?.close();
  await runtime?.queues.renewals.removeJobScheduler('renewals-daily').catch(() => {});
  await runtime?.close(2000);
  await stub?.close();
  await smtp?.close();
  await tdb?.drop();
});

const NEW = { address: '77 Harbor Road', city: 'Portland', state: 'OR', zip: '97201' };

describe('a plan with a new address, renewed', () => {
  it('the renewal order, the NetSuite sales order and the shipping notice go to the new address; the change is emailed naming it', async () => {
    const email = `address-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await api.request('/api/register', { body: { firstName: 'Sam', lastName: 'Saver', email, password: 'correct horse battery' } });
    const { user } = (await registered.json()) as { user: { id: string } };
    const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
    const [product] = await tdb.db
      .insert(tables.products)
      .values({ name: 'Address Cleaner', slug: `address-${randomUUID().slice(0, 6)}`, price: 1800, inventory: 50, status: 'active', sku: `NH-ADR-${randomUUID().slice(0, 4)}` })
      .returning({ id: tables.products.id, name: tables.products.name, sku: tables.products.sku });
    const profile = await storedTestCard(runtime.gateway as LocalSandboxGateway);
    // Due today (a few minutes after midnight UTC): the renewal may charge it now.
    const now = new Date();
    const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + 6 * 60_000);
    const [plan] = await tdb.db
      .insert(tables.subscriptions)
      .values({
        userId: user.id,
        customerEmail: email,
        customerName: 'Sam Saver',
        items: [{ productId: product!.id, productName: product!.name, variantSku: null, sku: product!.sku, itemNumber: null, quantity: 1, price: centsToDecimal(1800) }],
        amount: pricePlan([{ price: 1800, quantity: 1 }], null).renewal.total,
        nextBillingDate: due,
        shippingAddress: TEST_ADDRESS,
        authnetCustomerProfileId: profile.customerProfileId,
        authnetPaymentProfileId: profile.paymentProfileId,
      })
      .returning({ id: tables.subscriptions.id });
    const id = plan!.id;

    const changed = await api.request(`/api/subscriptions/${id}/address`, { method: 'PUT', body: NEW, headers: { cookie } });
    expect(changed.status, await changed.clone().text()).toBe(200);

    expect(await renewNow(runtime, id, due)).toMatchObject({ outcome: 'approved' });
    const [order] = await tdb.db.select().from(tables.orders).where(eq(tables.orders.subscriptionId, id));
    expect(order!.shippingAddress).toEqual(NEW);

    // NetSuite's sales order of that order ships to the new address.
    const salesOrder = await waitFor(() => stub.find('salesOrder', netsuiteExternalIds.salesOrder(order!.id)), 15_000, 'sales order in NetSuite');
    expect(salesOrder.body.shippingAddress).toEqual({ addressee: 'Sam Saver', addr1: NEW.address, city: NEW.city, state: NEW.state, zip: NEW.zip, country: { id: 'US' } });

    // The shipping notice, once staff ship it, says where it goes.
    await tdb.db.update(tables.orders).set({ status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999' }).where(eq(tables.orders.id, order!.id));
    const notice = orderShippedEmail((await findOrderForShippingNotice(tdb.db, order!.id))!);
    expect(notice.text).toContain(NEW.address);
    expect(notice.text).toContain(`${NEW.city}, ${NEW.state} ${NEW.zip}`);
    expect(notice.text).not.toContain(TEST_ADDRESS.address);

    // The shopper's confirmation names the new address.
    const confirmation = await waitFor(() => smtp.to(email).find((m) => m.decoded.includes(`Subject: Your ${SHOP.name} deliveries have a new address`)), 15_000, 'address email');
    expect(confirmation.decoded).toContain(`From your next delivery on, your plan ships to: ${NEW.address}, ${NEW.city}, ${NEW.state} ${NEW.zip}.`);

    // Staff change it again on the customer's behalf: the customer is told, in their words, with the address.
    const staff = await signInAs(api, 'support');
    const third = { address: '9 Elm Court', city: 'Salem', state: 'OR', zip: '97301' };
    const byStaff = await staff.request(`/api/admin/subscriptions/${id}/address`, { method: 'PUT', body: { ...third, reason: 'Asked by phone' } });
    expect(byStaff.status, await byStaff.clone().text()).toBe(200);
    const staffMail = await waitFor(
      () => smtp.to(email).find((m) => m.decoded.includes('As you asked, from your next delivery on') && m.decoded.includes(third.address)),
      15_000,
      'staff address email',
    );
    expect(staffMail.decoded).toContain(`ships to: ${third.address}, ${third.city}, ${third.state} ${third.zip}.`);
    expect(staffMail.decoded).not.toContain('Asked by phone');
  });
});
