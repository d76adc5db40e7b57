/**
 * Damage claims (issue 23; docs/decisions/claims.md): staff's claim on an order, resolved by a $0
 * replacement order (stock taken, its order.placed outbox row, naming the original), a refund (the refund
 * flow) or store credit (the ledger; a guest's order refused); once per Idempotency-Key; never more than
 * ordered less earlier claims; the queue's approve and decline; the claim figures.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal } from '@nh/shared';
import { creditBalance } from '@nh/server/queries/store-credit';
import { placeClaimableOrder, rowsOf } from './support/claims';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let fulfilment: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => rowsOf(api)<T>(text, values);

beforeAll(async () => {
  api = await startTestApi();
  manager = await signInAs(api, 'manager');
  support = await signInAs(api, 'support');
  fulfilment = await signInAs(api, 'fulfilment');
});
afterAll(() => api.close());

const placeOrder = (shopper: Shopper | null, quantity = 2) => placeClaimableOrder(api, shopper, quantity);

const claim = (who: StaffClient, orderId: string, body: Record<string, unknown>, key: string = randomUUID()) =>
  who.request(`/api/admin/orders/${orderId}/claims`, { method: 'POST', body: { reason: 'leaking', note: 'Customer called: the cap split', ...body }, headers: { 'idempotency-key': key } });

const inventory = async (productId: number) => (await q<{ inventory: number }>('select inventory from products where id = $1', [productId]))[0]!.inventory;
const settle = async (orderId: string) => {
  const [charge] = await q<{ authnet_transaction_id: string }>("select authnet_transaction_id from payment_transactions where order_id = $1 and kind = 'charge'", [orderId]);
  await api.payments.sandbox!.settle(charge!.authnet_transaction_id);
};

describe('a replacement', () => {
  it('makes one $0 paid order of the claimed lines naming the original, takes the stock, queues it for the pipeline, audited; a second click is the same claim', async () => {
    const { orderId, productId } = await placeOrder(null);
    const before = await inventory(productId);
    const key = randomUUID();
    const [a, b] = await Promise.all([claim(support, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace' }, key), claim(support, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace' }, key)]);
    const bodies = [await json(a, 201), await json(b, 201)];
    expect(bodies[0]).toEqual(bodies[1]);
    expect([a, b].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    const made = bodies[0]!;
    expect(made).toMatchObject({ orderId, status: 'resolved', statusLabel: 'Resolved', resolution: 'replace', resolutionLabel: 'Free replacement', reasonLabel: 'Arrived leaking', source: 'staff', staffEmail: support.email });
    expect(made.lines).toEqual([{ line: 0, quantity: 1, productName: expect.stringContaining('Leaky Refill') }]);

    const replacements = await q<{ id: string; total: string; status: string; replacement_of_order_id: string; items: Array<{ price: string; quantity: number; productId: number }>; customer_email: string }>(
      'select id, total::text, status, replacement_of_order_id, items, customer_email from orders where replacement_of_order_id = $1',
      [orderId],
    );
    expect(replacements).toHaveLength(1);
    const replacement = replacements[0]!;
    expect(replacement).toMatchObject({ id: made.replacementOrderId, total: '0.00', status: 'processing', replacement_of_order_id: orderId });
    expect(replacement.items).toEqual([expect.objectContaining({ productId, quantity: 1, price: '0.00' })]);
    expect(await inventory(productId)).toBe(before - 1);
    // The normal pipeline: its order.placed row (confirmation email and NetSuite sync), exactly one.
    expect(await q("select 1 from outbox where topic = 'order.placed' and payload->>'orderId' = $1", [replacement.id])).toHaveLength(1);
    const audit = await q<{ actor_email: string; after: Record<string, unknown> }>("select actor_email, after from audit_events where entity_id = $1 and action = 'order.claim_resolved'", [orderId]);
    expect(audit).toEqual([{ actor_email: support.email, after: expect.objectContaining({ resolution: 'Free replacement', reason: 'Arrived leaking', replacementOrderId: replacement.id }) }]);
  });

  it('names (and links) the replacement order in the order’s timeline and the customer’s timeline', async () => {
    const { orderId } = await placeOrder(null);
    const made = await json(await claim(support, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace' }), 201);
    const replacementId = made.replacementOrderId as string;
    const words = `Free replacement · Arrived leaking · replacement order ${replacementId.slice(0, 8)} · Customer called: the cap split`;

    const timeline = await json(await support.request(`/api/admin/orders/${orderId}/timeline`, { method: 'POST', body: {} }), 200);
    const events = (timeline.events as Array<Record<string, unknown>>).filter((e) => e.title === 'Resolved a damage claim');
    expect(events).toEqual([expect.objectContaining({ kind: 'staff', detail: words, actor: support.email, replacementOrderId: replacementId })]);
    // Every other entry names no replacement.
    expect((timeline.events as Array<Record<string, unknown>>).filter((e) => e.replacementOrderId !== null)).toHaveLength(1);

    const [owner] = await q<{ customer_id: string }>('select customer_id from orders where id = $1', [orderId]);
    const customer = await json(await support.request(`/api/admin/customers/${owner!.customer_id}`), 200);
    const entries = (customer.timeline as Array<Record<string, unknown>>).filter((e) => e.replacementOrderId !== null);
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'audit', title: 'Resolved a damage claim', detail: `Order ${orderId.slice(0, 8)} · ${words}`, by: support.email, orderId, replacementOrderId: replacementId }),
    ]);
  });

  it('refuses more than was ordered less earlier claims, naming what is left', async () => {
    const { orderId } = await placeOrder(null);
    expect(await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 3 }], resolution: 'replace' }), 422)).toMatchObject({
      code: 'CLAIM_OVER_CLAIMED',
      claimable: 2,
      message: expect.stringContaining('At most 2 of'),
    });
    await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 2 }], resolution: 'replace' }), 201);
    expect(await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace' }), 422)).toMatchObject({ code: 'CLAIM_OVER_CLAIMED', claimable: 0 });
    expect(await json(await claim(manager, orderId, { lines: [{ line: 4, quantity: 1 }], resolution: 'replace' }), 400)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The order has no line 5 (it has 1).' });
    expect(await json(await claim(manager, orderId, { lines: [], resolution: 'replace' }), 400)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace', reason: 'meh' }), 400)).toMatchObject({ code: 'VALIDATION_FAILED' });
    const noKey = await manager.request(`/api/admin/orders/${orderId}/claims`, { method: 'POST', body: { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', resolution: 'replace' } });
    expect(await json(noKey, 400)).toMatchObject({ code: 'IDEMPOTENCY_KEY_MISSING' });
    expect(await q('select 1 from orders where replacement_of_order_id = $1', [orderId])).toHaveLength(1);
  });

  it('fulfilment staff cannot claim; support cannot refund through a claim', async () => {
    const { orderId } = await placeOrder(null);
    expect(await json(await claim(fulfilment, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace' }), 403)).toMatchObject({ code: 'STAFF_FORBIDDEN' });
    expect(await json(await claim(support, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'refund' }), 403)).toMatchObject({ code: 'STAFF_FORBIDDEN' });
    expect(await q('select 1 from claims where order_id = $1', [orderId])).toEqual([]);
  });
});

describe('a refund or store credit', () => {
  it('refunds the claimed lines’ value through the refund flow, once per key', async () => {
    const { orderId } = await placeOrder(null);
    await settle(orderId);
    const key = randomUUID();
    const made = await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'refund' }, key), 201);
    // Half of the goods: (43.18 − 9.99 shipping) / 2 = 16.595 → 16.60 (the line's share of discount and tax).
    const [order] = await q<{ total: string; shipping: string }>('select total::text, shipping::text from orders where id = $1', [orderId]);
    const expected = Math.round(((Number(order!.total) - Number(order!.shipping)) * 100) / 2);
    expect(made).toMatchObject({ status: 'resolved', resolution: 'refund', amount: centsToDecimal(expected) });
    const again = await claim(manager, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'refund' }, key);
    expect(await json(again, 201)).toEqual(made);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const refunds = await q<{ kind: string; status: string; amount: string; reason: string }>("select kind, status, amount::text, reason from payment_transactions where order_id = $1 and kind <> 'charge'", [orderId]);
    expect(refunds).toEqual([{ kind: 'refund', status: 'approved', amount: centsToDecimal(expected), reason: 'Damage claim: Arrived leaking (Customer called: the cap split)' }]);
  });

  it('gives store credit to the account; a guest’s order is refused with what to do, and nothing is written', async () => {
    const shopper = await signUpShopper(api, 'claim-credit');
    const { orderId } = await placeOrder(shopper);
    const made = await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 2 }], resolution: 'credit' }), 201);
    expect(made).toMatchObject({ status: 'resolved', resolution: 'credit', resolutionLabel: 'Store credit' });
    expect(await creditBalance(api.ctx.db.$client, shopper.id)).toBe(Math.round(Number(made.amount) * 100));

    const guest = await placeOrder(null);
    expect(await json(await claim(manager, guest.orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'credit' }), 409)).toMatchObject({
      code: 'CLAIM_NO_ACCOUNT',
      message: expect.stringContaining('placed as a guest'),
    });
    expect(await q('select 1 from claims where order_id = $1', [guest.orderId])).toEqual([]);
  });
});

describe('the queue', () => {
  it('lists claims awaiting review; approve resolves with the chosen resolution; decline keeps the items claimable', async () => {
    const { orderId } = await placeOrder(null);
    // A claim awaiting review, as a shopper's report leaves it.
    const [row] = await q<{ id: string }>(
      `insert into claims (order_id, idempotency_key, source, lines, reason, status, amount_cents) values ($1, $2, 'shopper', '[{"line":0,"quantity":1}]', 'arrived_damaged', 'awaiting_review', 1660) returning id`,
      [orderId, randomUUID()],
    );
    const [other] = await q<{ id: string }>(
      `insert into claims (order_id, idempotency_key, source, lines, reason, status, amount_cents) values ($1, $2, 'shopper', '[{"line":0,"quantity":1}]', 'wrong_item', 'awaiting_review', 1660) returning id`,
      [orderId, randomUUID()],
    );
    const queue = (await json(await support.request('/api/admin/claims?status=awaiting_review'), 200)) as unknown as Array<{ id: string; statusLabel: string }>;
    expect(queue.map((c) => c.id)).toEqual(expect.arrayContaining([row!.id, other!.id]));
    expect(queue.find((c) => c.id === row!.id)).toMatchObject({ statusLabel: 'Awaiting review' });

    const declined = await json(await support.request(`/api/admin/claims/${other!.id}/decline`, { method: 'POST', body: { note: 'Photo shows the wrong order' } }), 200);
    expect(declined).toMatchObject({ status: 'declined', decisionNote: 'Photo shows the wrong order' });
    const approved = await json(await support.request(`/api/admin/claims/${row!.id}/approve`, { method: 'POST', body: { resolution: 'replace' } }), 200);
    expect(approved).toMatchObject({ status: 'resolved', resolution: 'replace', replacementOrderId: expect.any(String) });
    expect(await json(await support.request(`/api/admin/claims/${row!.id}/approve`, { method: 'POST', body: { resolution: 'replace' } }), 409)).toMatchObject({ code: 'CLAIM_ALREADY_DECIDED' });
    // The declined claim's unit is claimable again: 2 ordered, 1 claimed.
    await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace' }), 201);
    expect(await q('select 1 from orders where replacement_of_order_id = $1', [orderId])).toHaveLength(2);
  });
});

describe('claim figures', () => {
  it('counts units claimed against units sold by product, and claims by reason, in words', async () => {
    const { orderId, productId } = await placeOrder(null, 4);
    await json(await claim(manager, orderId, { lines: [{ line: 0, quantity: 1 }], resolution: 'replace', reason: 'arrived_damaged' }), 201);
    const today = new Date().toISOString().slice(0, 10);
    const report = await json(await manager.request(`/api/admin/reports/claims?from=${today}&to=${today}`), 200);
    const byProduct = report.byProduct as Array<{ productId: number; unitsSold: number; unitsClaimed: number; rate: number }>;
    // The replacement order's unit is not a sale.
    expect(byProduct.find((p) => p.productId === productId)).toMatchObject({ unitsSold: 4, unitsClaimed: 1, rate: 0.25 });
    expect(report.byReason).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'arrived_damaged', label: 'Arrived damaged' })]));
    expect(await json(await manager.request('/api/admin/reports/claims?from=2026-02-01&to=2026-01-01'), 400)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await support.request(`/api/admin/reports/claims?from=${today}&to=${today}`)).status).toBe(403);
  });
});
