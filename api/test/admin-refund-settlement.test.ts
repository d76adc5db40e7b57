/**
 * Where an order's charge stands before a refund (issue 23: POST /api/admin/orders/{id}/settlement), for
 * the refund dialog's review step: not settled yet (the whole charge is voided), settled (refunded to
 * the card), voided (nothing left), no charge; only roles that refund may ask. Orders are placed through
 * the real checkout and charged by the local sandbox, whose charges settle when a test says so.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared';
import { chargeSettlementSchema } from '@nh/shared/contracts/refunds';
import type { LocalSandboxGateway } from '@nh/server/payments';
import { makeTestProduct, placePaidOrder, type PaidOrder } from './support/paid-orders';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let sandbox: LocalSandboxGateway;
let manager: StaffClient;

beforeAll(async () => {
  api = await startTestApi();
  sandbox = api.payments.sandbox!;
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

async function paidOrder(): Promise<PaidOrder> {
  const productId = await makeTestProduct(api, { price: 2000, inventory: 10, prefix: 'Settlement Test', skuPrefix: 'ST' });
  return placePaidOrder(api, { lines: [{ price: 2000, quantity: 2 }], productIds: [productId] });
}

const settlement = async (orderId: string, client: StaffClient = manager) => {
  const res = await client.request(`/api/admin/orders/${orderId}/settlement`, { method: 'POST', body: {} });
  return { status: res.status, body: await res.json() };
};

const refund = (orderId: string, amount: number) =>
  manager.request(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', body: { amount: centsToDecimal(amount), reason: 'Arrived leaking', restock: false }, headers: { 'Idempotency-Key': randomUUID() } });

describe('where the charge stands, for the review step', () => {
  it('not settled yet: the whole charge will be voided, and a partial refund waits for settlement', async () => {
    const order = await paidOrder();
    const { status, body } = await settlement(order.id);
    expect(status).toBe(200);
    const shown = chargeSettlementSchema.parse(body);
    expect(shown).toMatchObject({ state: 'unsettled', captured: centsToDecimal(order.total), lastFour: '1111', status: null });
    expect(shown.message).toBe(
      `This payment has not settled yet, so the whole charge ($${centsToDecimal(order.total)}) will be voided: the customer is never charged. A partial refund is not possible until it settles (usually within a day).`,
    );
  });

  it('settled: refunded to the card, named by its last four digits', async () => {
    const order = await paidOrder();
    expect(await sandbox.settle(order.transactionId)).toBe(true);
    const shown = chargeSettlementSchema.parse((await settlement(order.id)).body);
    expect(shown.state).toBe('settled');
    expect(shown.message).toMatch(/^This payment has settled, so the money will be refunded to the .*ending 1111\.$/);
  });

  it('after a partial refund the rows say it settled; after a void, nothing can be given back', async () => {
    const settled = await paidOrder();
    await sandbox.settle(settled.transactionId);
    expect((await refund(settled.id, 500)).status).toBe(201);
    expect(chargeSettlementSchema.parse((await settlement(settled.id)).body).state).toBe('settled');

    const voided = await paidOrder();
    expect((await refund(voided.id, voided.total)).status).toBe(201);
    const shown = chargeSettlementSchema.parse((await settlement(voided.id)).body);
    expect(shown).toMatchObject({ state: 'closed', status: 'voided', message: 'The payment service has this charge as voided, so nothing can be refunded.' });
  });

  it('an order without a captured charge says there is nothing to refund; an unknown order is 404', async () => {
    const order = await paidOrder();
    await api.ctx.db.$client.query(`update payment_transactions set status = 'declined' where order_id = $1`, [order.id]);
    expect(chargeSettlementSchema.parse((await settlement(order.id)).body)).toMatchObject({ state: 'none', captured: null, message: 'This order has no captured payment, so there is nothing to refund.' });
    expect((await settlement(randomUUID())).status).toBe(404);
    expect((await settlement('not-an-id')).status).toBe(404);
  });

  it('only roles that refund may ask (it calls the payment service)', async () => {
    const order = await paidOrder();
    const support = await signInAs(api, 'support');
    expect((await settlement(order.id, support)).status).toBe(403);
  });
});
