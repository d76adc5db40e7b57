/**
 * Refunds by line and quantity (issue 23; docs/decisions/refunds.md "Refund by line"): the server works out
 * the amount from what was paid for the items (discount and tax spread as the order was priced), never
 * more of a line than is left, the shipping once, restock per line, two tabs at once never over-refund a
 * line, a repeat answers the first, and "notify the customer" writes the refund email's outbox row (or not).
 * Orders are placed through the real checkout and charged by the local sandbox.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared';
import { paidPerLine, partOfLine } from '@nh/shared/refund-amounts';
import { refundResponseSchema } from '@nh/shared/contracts/refunds';
import type { LocalSandboxGateway } from '@nh/server/payments';
import { findShopperOrder } from '@nh/server/queries/shopper-self-service';
import { shopperRefundsOf } from '@nh/server/queries/order-refunds';
import { toShopperOrder } from '../src/modules/account/orders-view';
import { makeTestProduct, placePaidOrder } from './support/paid-orders';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let sandbox: LocalSandboxGateway;
let manager: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  sandbox = api.payments.sandbox!;
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

const inventoryOf = async (id: number) => (await q<{ inventory: number }>('select inventory from products where id = $1', [id]))[0]!.inventory;

interface Placed {
  id: string;
  total: number;
  shipping: number;
  tax: number;
  productIds: number[];
  lines: Array<{ price: number; quantity: number }>;
}

/** An order of the given lines (unit price cents, quantity), paid (support/paid-orders.ts) and settled. Under $50 it pays $9.99 shipping. */
async function placeOrder(lines: Array<{ price: number; quantity: number }>, settle = true): Promise<Placed> {
  const productIds = await Promise.all(lines.map((l) => makeTestProduct(api, { price: l.price, inventory: 20, prefix: 'Line Refund', skuPrefix: 'LR' })));
  const order = await placePaidOrder(api, { lines, productIds, email: `ada-${randomUUID().slice(0, 6)}@example.com` });
  if (settle) expect(await sandbox.settle(order.transactionId)).toBe(true);
  return { id: order.id, total: order.total, shipping: order.shipping, tax: order.tax, productIds, lines };
}

const refund = (orderId: string, body: Record<string, unknown>, key: string = randomUUID()) =>
  manager.request(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', body: { reason: 'Arrived leaking', ...body }, headers: { 'Idempotency-Key': key } });

const paidOf = (o: Placed) => paidPerLine({ lines: o.lines, discount: 0, tax: o.tax });
const noticeRows = (orderId: string) => q<{ payload: { orderId: string; paymentId?: string } }>(`select payload from outbox where topic = 'order.refund-notice' and payload->>'orderId' = $1`, [orderId]);

describe('a refund by line', () => {
  it('gives back what was paid for the items (their share of the tax), restocks the line asked, and tells the customer', async () => {
    const order = await placeOrder([
      { price: 1000, quantity: 3 },
      { price: 550, quantity: 1 },
    ]);
    const paid = paidOf(order);
    const expected = partOfLine(paid[0]!, 3, 0, 2);
    const before = await Promise.all(order.productIds.map(inventoryOf));
    const res = await refund(order.id, { lines: [{ line: 0, quantity: 2, restock: true }] });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = refundResponseSchema.parse(await res.json());
    expect(body.payment).toMatchObject({ kind: 'refund', status: 'approved', amount: centsToDecimal(expected) });
    expect(body.refunded).toBe(centsToDecimal(expected));
    // Two of three $10.00 items with 8% tax: $21.60.
    expect(expected).toBe(2160);
    expect(await Promise.all(order.productIds.map(inventoryOf))).toEqual([before[0]! + 2, before[1]]);
    const [row] = await q<{ refund_lines: unknown; restocked: boolean }>(`select refund_lines, restocked from payment_transactions where id = $1`, [body.payment.id]);
    expect(row).toEqual({ refund_lines: [{ line: 0, quantity: 2, amount: 2160, restock: true }], restocked: false });
    expect((await noticeRows(order.id)).map((r) => r.payload)).toEqual([{ orderId: order.id, paymentId: body.payment.id }]);
  });

  it('with the shipping, once: the rest of the order then refunds it to the cent', async () => {
    const order = await placeOrder([
      { price: 1000, quantity: 1 },
      { price: 333, quantity: 3 },
    ]);
    expect(order.shipping).toBe(999);
    const first = await refund(order.id, { lines: [{ line: 1, quantity: 1 }], includeShipping: true, notify: false });
    expect(first.status).toBe(201);
    const paid = paidOf(order);
    expect(refundResponseSchema.parse(await first.json()).payment.amount).toBe(centsToDecimal(partOfLine(paid[1]!, 3, 0, 1) + 999));

    const again = await refund(order.id, { lines: [{ line: 0, quantity: 1 }], includeShipping: true });
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ code: 'REFUND_TOO_LARGE', message: 'The shipping of this order was refunded already.' });

    const rest = await refund(order.id, { lines: [{ line: 0, quantity: 1 }, { line: 1, quantity: 2 }] });
    expect(rest.status).toBe(201);
    expect(await rest.json()).toMatchObject({ refunded: centsToDecimal(order.total), refundable: '0.00' });
  });

  it('refuses more of a line than is left, and a line the order does not have, saying why', async () => {
    const order = await placeOrder([{ price: 1200, quantity: 2 }]);
    expect((await refund(order.id, { lines: [{ line: 0, quantity: 1 }] })).status).toBe(201);
    const tooMany = await refund(order.id, { lines: [{ line: 0, quantity: 2 }] });
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as { message: string }).message).toMatch(/^At most 1 of Line Refund .* can still be refunded/);
    const noLine = await refund(order.id, { lines: [{ line: 3, quantity: 1 }] });
    expect(noLine.status).toBe(400);
    expect(await noLine.json()).toMatchObject({ message: 'This order has 1 line, so there is no line 4 to refund.' });
    const both = await refund(order.id, { amount: '1.00', restock: false, lines: [{ line: 0, quantity: 1 }] });
    expect(both.status).toBe(400);
    const nothing = await refund(order.id, { lines: [] });
    expect(nothing.status).toBe(400);
  });

  it('two tabs refunding the same line at once: one refund, the other refused (the order is locked)', async () => {
    const order = await placeOrder([{ price: 2000, quantity: 1 }, { price: 500, quantity: 1 }]);
    const answers = await Promise.all([refund(order.id, { lines: [{ line: 0, quantity: 1 }] }), refund(order.id, { lines: [{ line: 0, quantity: 1 }] })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    const rows = await q<{ n: string }>(`select count(*)::text as n from payment_transactions where order_id = $1 and kind = 'refund'`, [order.id]);
    expect(rows[0]!.n).toBe('1');
  });

  it('a repeat with the same key answers the first refund; the same key with other lines is refused', async () => {
    const order = await placeOrder([{ price: 1500, quantity: 2 }]);
    const key = randomUUID();
    const first = await refund(order.id, { lines: [{ line: 0, quantity: 1 }] }, key);
    const again = await refund(order.id, { lines: [{ line: 0, quantity: 1 }] }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(refundResponseSchema.parse(await again.json()).payment.id).toBe(refundResponseSchema.parse(await first.json()).payment.id);
    const other = await refund(order.id, { lines: [{ line: 0, quantity: 2 }] }, key);
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('notify off sends nothing; a refund by amount keeps working and notifies by default', async () => {
    const order = await placeOrder([{ price: 1500, quantity: 2 }]);
    expect((await refund(order.id, { lines: [{ line: 0, quantity: 1 }], notify: false })).status).toBe(201);
    expect(await noticeRows(order.id)).toEqual([]);
    const byAmount = await refund(order.id, { amount: '2.00', restock: false });
    expect(byAmount.status).toBe(201);
    expect(await noticeRows(order.id)).toHaveLength(1);
    const audit = await q<{ after: { notified: boolean } }>(`select after from audit_events where entity_id = $1 and action = 'order.refunded' order by id`, [order.id]);
    expect(audit.map((a) => a.after.notified)).toEqual([false, true]);
  });

  it('an unsettled charge: lines covering everything void it; part of it is refused', async () => {
    const order = await placeOrder([{ price: 1500, quantity: 2 }], false);
    const part = await refund(order.id, { lines: [{ line: 0, quantity: 1 }] });
    expect(part.status).toBe(409);
    expect(await part.json()).toMatchObject({ code: 'REFUND_PARTIAL_UNSETTLED' });
    const all = await refund(order.id, { lines: [{ line: 0, quantity: 2 }], includeShipping: true });
    expect(all.status).toBe(201);
    expect(await all.json()).toMatchObject({ payment: { kind: 'void' }, refundable: '0.00' });
  });

  it('cancelling after a line was restocked puts back only the rest', async () => {
    const order = await placeOrder([{ price: 1000, quantity: 3 }]);
    const start = await inventoryOf(order.productIds[0]!);
    expect((await refund(order.id, { lines: [{ line: 0, quantity: 1, restock: true }] })).status).toBe(201);
    expect(await inventoryOf(order.productIds[0]!)).toBe(start + 1);
    const cancel = await manager.request(`/api/admin/orders/${order.id}`, { method: 'PATCH', body: { status: 'cancelled' } });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    expect(await inventoryOf(order.productIds[0]!)).toBe(start + 3);
    // The whole order may not be restocked again by a refund.
    const whole = await refund(order.id, { amount: '1.00', restock: true });
    expect(whole.status).toBe(409);
  });
});

describe('refunds by line to store credit', () => {
  it('are refused with words staff can act on (credit is by amount)', async () => {
    const order = await placeOrder([{ price: 1000, quantity: 1 }]);
    const res = await refund(order.id, { method: 'credit', lines: [{ line: 0, quantity: 1 }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'A refund to store credit is by amount only: enter the amount to give as credit.' });
  });
});

describe("the shopper's order page", () => {
  it('shows each refund given (items, shipping, where to) and what is left; a refund still pending is not shown', async () => {
    const order = await placeOrder([
      { price: 1000, quantity: 2 },
      { price: 700, quantity: 1 },
    ]);
    expect((await refund(order.id, { lines: [{ line: 1, quantity: 1 }], includeShipping: true })).status).toBe(201);
    expect((await refund(order.id, { amount: '1.00', restock: false })).status).toBe(201);
    const row = (await findShopperOrder(api.ctx.db, order.id))!;
    const shown = toShopperOrder(row, await shopperRefundsOf(api.ctx.db, order.id));
    const lineAmount = partOfLine(paidOf(order)[1]!, 1, 0, 1) + order.shipping;
    expect(shown.refunds.map((r) => [r.method, r.amount, r.items, r.shipping, r.lastFour])).toEqual([
      ['card', lineAmount, [{ productName: row.items[1]!.productName, quantity: 1 }], order.shipping, '1111'],
      ['card', 100, [], 0, '1111'],
    ]);
    expect(shown.refundLeft).toBe(order.total - lineAmount - 100);
    expect(Number(row.refunded)).toBe(lineAmount + 100);
  });
});

describe('the orders table: payment state', () => {
  const list = async (body: Record<string, unknown>) => {
    const res = await manager.request('/api/admin/orders', { method: 'POST', body: { limit: 100, ...body } });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Array<{ id: string; paymentState: string; refunded: string }>;
  };

  it('shows paid, partially refunded, refunded and voided, and filters by each', async () => {
    const email = `state-${randomUUID().slice(0, 6)}`;
    const paid = await placeOrder([{ price: 1000, quantity: 2 }]);
    const partly = await placeOrder([{ price: 1000, quantity: 2 }]);
    const whole = await placeOrder([{ price: 1000, quantity: 2 }]);
    const voided = await placeOrder([{ price: 1000, quantity: 2 }], false);
    await q(`update orders set customer_name = $1 where id = any($2::uuid[])`, [email, [paid.id, partly.id, whole.id, voided.id]]);
    expect((await refund(partly.id, { lines: [{ line: 0, quantity: 1 }] })).status).toBe(201);
    expect((await refund(whole.id, { lines: [{ line: 0, quantity: 2 }], includeShipping: true })).status).toBe(201);
    expect((await refund(voided.id, { amount: centsToDecimal(voided.total), restock: false })).status).toBe(201);

    const all = await list({ search: email });
    const stateOf = Object.fromEntries(all.map((o) => [o.id, o.paymentState]));
    expect(stateOf).toEqual({ [paid.id]: 'paid', [partly.id]: 'partially_refunded', [whole.id]: 'refunded', [voided.id]: 'voided' });
    expect(all.find((o) => o.id === whole.id)!.refunded).toBe(centsToDecimal(whole.total));
    for (const [state, id] of [['paid', paid.id], ['partially_refunded', partly.id], ['refunded', whole.id], ['voided', voided.id]] as const) {
      expect((await list({ search: email, paymentState: state })).map((o) => o.id)).toEqual([id]);
    }
    const bad = await manager.request('/api/admin/orders', { method: 'POST', body: { paymentState: 'PARTIAL' } });
    expect(bad.status).toBe(400);
    const detail = await manager.request(`/api/admin/orders/${partly.id}`, { method: 'POST', body: {} });
    expect(await detail.json()).toMatchObject({ paymentState: 'partially_refunded' });
  });
});
