/**
 * Refunds to store credit (issue 23): `method: 'credit'` on POST /api/admin/orders/{id}/refunds gives the
 * amount to the order's account instead of the card, audited, once per Idempotency-Key, and never more
 * than was paid whichever way the money goes back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBalance, creditHistory } from '@nh/server/queries/store-credit';
import { makeTestProduct, placePaidOrder } from './support/paid-orders';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

/** Places a $20.00 order (31.59 with shipping and tax) paid by card (support/paid-orders.ts), as the shopper or a guest; answers its id. */
async function placeOrder(shopper: Shopper | null): Promise<string> {
  const productId = await makeTestProduct(api, { price: 2000, inventory: 100, prefix: 'Refund Credit' });
  const order = await placePaidOrder(api, { lines: [{ price: 2000, quantity: 1 }], productIds: [productId], via: shopper?.call });
  return order.id;
}

const refund = (orderId: string, body: Record<string, unknown>, key = randomUUID()) =>
  manager.request(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', body: { restock: false, ...body }, headers: { 'idempotency-key': key } });

describe('refunds to store credit', () => {
  it('gives the amount to the account instead of the card, audited, once per key', async () => {
    const shopper = await signUpShopper(api, 'refund-credit');
    const orderId = await placeOrder(shopper);
    const key = randomUUID();
    const [a, b] = await Promise.all([refund(orderId, { amount: '12.50', reason: 'Leaking refill', method: 'credit' }, key), refund(orderId, { amount: '12.50', reason: 'Leaking refill', method: 'credit' }, key)]);
    const bodies = [await json(a, 201), await json(b, 201)];
    expect(bodies[0]).toEqual({ method: 'credit', amount: '12.50', balance: '12.50', refunded: '12.50', refundable: '19.09' });
    expect([a, b].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(1250);
    const [entry] = await creditHistory(api.ctx.db.$client, shopper.id);
    expect(entry).toMatchObject({ kind: 'refund', amount: 1250, orderId, reason: 'Leaking refill', staffName: 'Test manager' });
    const audit = await q('select actor_email, action, after from audit_events where entity_id = $1', [orderId]);
    expect(audit).toEqual([
      { actor_email: manager.email, action: 'order.refunded', after: { refunded: '12.50', kind: 'credit', amount: '12.50', reason: 'Leaking refill', restocked: false, notified: true } },
    ]);
    // No card refund was made.
    expect(await q("select 1 from payment_transactions where order_id = $1 and kind <> 'charge'", [orderId])).toEqual([]);
  });

  it('never gives back more than was paid, card and credit together', async () => {
    const shopper = await signUpShopper(api, 'refund-credit-max');
    const orderId = await placeOrder(shopper);
    const over = await json(await refund(orderId, { amount: '31.60', reason: 'x', method: 'credit' }), 422);
    expect(over).toMatchObject({ code: 'REFUND_TOO_LARGE', refundable: '31.59' });
    await json(await refund(orderId, { amount: '31.59', reason: 'x', method: 'credit' }), 201);
    // The card's charge is untouched, but the order was given back in full: a card refund is refused.
    const [charge] = await q<{ authnet_transaction_id: string }>("select authnet_transaction_id from payment_transactions where order_id = $1 and kind = 'charge'", [orderId]);
    await api.payments.sandbox!.settle(charge!.authnet_transaction_id);
    const card = await json(await refund(orderId, { amount: '1.00', reason: 'x' }), 422);
    expect(card).toMatchObject({ code: 'REFUND_TOO_LARGE' });
    const again = await json(await refund(orderId, { amount: '0.01', reason: 'x', method: 'credit' }), 422);
    expect(again).toMatchObject({ code: 'REFUND_TOO_LARGE', refundable: '0.00' });
  });

  it("refuses a guest's order and restocking, with what to do", async () => {
    const orderId = await placeOrder(null);
    expect(await json(await refund(orderId, { amount: '1.00', reason: 'x', method: 'credit' }), 409)).toMatchObject({ code: 'CREDIT_NO_ACCOUNT', message: expect.stringContaining('send the customer a sign-in code first') });
    const shopper = await signUpShopper(api, 'refund-credit-restock');
    const own = await placeOrder(shopper);
    expect(await json(await refund(own, { amount: '1.00', reason: 'x', method: 'credit', restock: true }), 400)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await json(await refund(own, { amount: '1.00', reason: 'x', method: 'cheque' }), 400)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
