/**
 * Issue 25: a refund gives the tax back in proportion (docs/decisions/tax-and-shipping.md "Refunds"). An
 * order whose lines carry their own tax (a destination where one line is taxed and the other exempt) gives
 * back each line's own tax, and a part of a line its pro-rata share of that line's tax. The order is placed
 * through the real checkout and then given per-line taxes as a destination's calculator would store them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared';
import { partOfLine, refundTaxPart } from '@nh/shared/refund-amounts';
import { adminOrderSchema } from '@nh/shared/contracts/admin';
import { refundResponseSchema } from '@nh/shared/contracts/refunds';
import type { LocalSandboxGateway } from '@nh/server/payments';
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

const refund = (orderId: string, body: Record<string, unknown>) =>
  manager.request(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', body: { reason: 'Arrived leaking', notify: false, ...body }, headers: { 'Idempotency-Key': randomUUID() } });

/**
 * Three $10.00 items taxed 7 % (2.10) and one $5.50 item exempt (0.00), $9.99 shipping: 47.59, within the
 * 48.33 the card was charged at the flat 8 % (what is left of the charge is never the point here).
 */
async function taxedOrder() {
  const lines = [
    { price: 1000, quantity: 3 },
    { price: 550, quantity: 1 },
  ];
  const productIds = await Promise.all(lines.map((l) => makeTestProduct(api, { price: l.price, inventory: 20, prefix: 'Tax Refund', skuPrefix: 'TR' })));
  const placed = await placePaidOrder(api, { lines, productIds, email: `tax-${randomUUID().slice(0, 6)}@example.com` });
  expect(await sandbox.settle(placed.transactionId)).toBe(true);
  await q(
    `update orders set items = jsonb_build_array(items->0 || '{"tax":"2.10"}', items->1 || '{"tax":"0.00"}'), tax = 2.10, total = 47.59, tax_source = 'table' where id = $1`,
    [placed.id],
  );
  return { id: placed.id, order: { lines: [{ price: 1000, quantity: 3, tax: 210 }, { price: 550, quantity: 1, tax: 0 }], discount: 0, tax: 210, shippingTax: 0, total: 4759, shipping: 999 } };
}

describe('a refund gives the tax back in proportion', () => {
  it("by line: each line's own tax; part of a line: its pro-rata share of that line's tax", async () => {
    const { id, order } = await taxedOrder();
    // Staff see each line's tax, so the dialog works out the same figure.
    const detail = adminOrderSchema.parse(await (await manager.request(`/api/admin/orders/${id}`, { method: 'POST', body: {} })).json());
    expect(detail.items.map((i) => i.tax)).toEqual(['2.10', '0.00']);
    expect(detail.shippingTax).toBe('0.00');

    // The exempt line: its price, no tax (the flat rule would have spread 8 % over it).
    const exempt = await refund(id, { lines: [{ line: 1, quantity: 1 }] });
    expect(exempt.status, await exempt.clone().text()).toBe(201);
    expect(refundResponseSchema.parse(await exempt.json()).payment.amount).toBe('5.50');

    // Two of the three taxed items: two thirds of (30.00 + 2.10).
    const part = await refund(id, { lines: [{ line: 0, quantity: 2 }] });
    expect(part.status).toBe(201);
    const partBody = refundResponseSchema.parse(await part.json());
    expect(partBody.payment.amount).toBe(centsToDecimal(partOfLine(3210, 3, 0, 2)));
    expect(partBody.payment.amount).toBe('21.40');
    // Its tax part (what NetSuite's credit memo credits on its tax line): two thirds of 2.10.
    expect(refundTaxPart(order, { amount: 2140, lines: [{ line: 0, amount: 2140 }], shipping: 0 })).toBe(140);

    // The last item and the shipping: the order is given back to the cent, tax and all.
    const rest = await refund(id, { lines: [{ line: 0, quantity: 1 }], includeShipping: true });
    expect(rest.status).toBe(201);
    const restBody = refundResponseSchema.parse(await rest.json());
    expect(restBody.payment.amount).toBe(centsToDecimal(3210 - 2140 + 999));
    expect(restBody.refunded).toBe('47.59');
    const rows = await q<{ refund_lines: Array<{ line: number; amount: number }>; refund_shipping: string }>(
      `select refund_lines, refund_shipping::text from payment_transactions where order_id = $1 and kind = 'refund' order by created_at`,
      [id],
    );
    const taxBack = rows.reduce(
      (sum, r) => sum + refundTaxPart(order, { amount: r.refund_lines.reduce((s, l) => s + l.amount, 0) + Math.round(Number(r.refund_shipping) * 100), lines: r.refund_lines, shipping: Math.round(Number(r.refund_shipping) * 100) }),
      0,
    );
    expect(taxBack).toBe(210);
  });
});
