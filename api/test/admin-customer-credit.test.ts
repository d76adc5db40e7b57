/**
 * The customer page and store credit (issue 23): an account's balance and ledger on
 * GET /api/admin/customers/{id}, credit movements in the one timeline in words (a staff grant once, as
 * its audit row), and the customer's figures with credit: lifetime spend is what the orders cost, paid
 * by any means, less every refund (to the card, voided, or to store credit); "refunded" counts all of them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDetailSchema } from '@nh/shared/contracts/admin-customers';
import { makeTestProduct, placePaidOrder } from './support/paid-orders';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  api = await startTestApi();
  [manager, support] = await Promise.all([signInAs(api, 'manager'), signInAs(api, 'support')]);
});
afterAll(() => api.close());

const detail = async (id: string) => customerDetailSchema.parse(await json(await support.request(`/api/admin/customers/${id}`), 200));
const grant = (customerId: string, amount: string, reason: string) =>
  manager.request(`/api/admin/customers/${customerId}/credit`, { method: 'POST', body: { amount, reason }, headers: { 'idempotency-key': randomUUID() } });
const refund = (orderId: string, body: Record<string, unknown>) =>
  manager.request(`/api/admin/orders/${orderId}/refunds`, { method: 'POST', body: { restock: false, ...body }, headers: { 'idempotency-key': randomUUID() } });

/** Places a $20.00 order ($31.59 with shipping and tax) through the checkout (support/paid-orders.ts), as the shopper or a guest. */
async function placeOrder(shopper: Shopper | null, email = 'ada@example.com'): Promise<string> {
  const productId = await makeTestProduct(api, { price: 2000, inventory: 100, prefix: 'Customer Credit' });
  const order = await placePaidOrder(api, { lines: [{ price: 2000, quantity: 1 }], productIds: [productId], email, via: shopper?.call });
  return order.id;
}

describe('the customer page shows store credit', () => {
  it('an account: balance, ledger with reasons and names, and each movement once in the timeline in words', async () => {
    const shopper = await signUpShopper(api, 'page-credit');
    const empty = await detail(shopper.id);
    expect(empty.credit).toEqual({ balance: '0.00', entries: [] });

    await json(await grant(shopper.id, '15.00', 'Refill arrived leaking'), 201);
    const orderId = await placeOrder(shopper, shopper.email); // spends the $15.00 first, the card pays $16.59
    await json(await refund(orderId, { amount: '4.00', reason: 'Late delivery', method: 'credit' }), 201);

    const c = await detail(shopper.id);
    expect(c.credit!.balance).toBe('4.00');
    expect(c.credit!.entries).toMatchObject([
      { kind: 'refund', label: 'Refund to store credit', amount: '4.00', balanceAfter: '4.00', orderId, reason: 'Late delivery', staffName: 'Test manager' },
      { kind: 'spend', label: 'Used on an order', amount: '-15.00', balanceAfter: '0.00', orderId },
      { kind: 'grant', label: 'Credit given', amount: '15.00', balanceAfter: '15.00', reason: 'Refill arrived leaking', staffName: 'Test manager' },
    ]);

    const credit = c.timeline.filter((e) => e.kind === 'credit');
    expect(credit.map((e) => e.title)).toEqual([`Store credit: Refund to store credit +$4.00 (order ${orderId.slice(0, 8)})`, `Store credit: Used on an order −$15.00 (order ${orderId.slice(0, 8)})`]);
    expect(credit[0]).toMatchObject({ detail: 'Late delivery; Balance $4.00', by: 'Test manager', orderId });
    // The grant's audit row (entity customer = the account's id) is the grant's one entry, in words.
    const grants = c.timeline.filter((e) => e.title === 'Gave store credit');
    expect(grants).toEqual([
      { kind: 'audit', at: expect.any(String), title: 'Gave store credit', detail: '$15.00: Refill arrived leaking (balance $0.00 → $15.00)', by: manager.email, orderId: null, subscriptionId: null, replacementOrderId: null },
    ]);
    // The refund to credit's audit row (on the order) is there too, with the person.
    expect(c.timeline.find((e) => e.kind === 'audit' && e.orderId === orderId)).toMatchObject({ title: 'Refunded order', by: manager.email });
    expect(JSON.stringify(c.timeline)).not.toMatch(/"(grant|spend|refund)"/);
  });

  it('a guest has no ledger: credit is null', async () => {
    const email = `guest-credit.${randomUUID().slice(0, 8)}@example.com`;
    await placeOrder(null, email);
    const [row] = await q<{ id: string }>('select id from customers where email = $1', [email]);
    const c = await detail(row!.id);
    expect(c).toMatchObject({ hasAccount: false, credit: null });
    expect(c.timeline.some((e) => e.kind === 'credit')).toBe(false);
  });
});

describe('lifetime spend and refunds with store credit (one rule)', () => {
  it('an order partly paid by credit counts in full; refunds to the card and to credit both come off', async () => {
    const shopper = await signUpShopper(api, 'figures-credit');
    await json(await grant(shopper.id, '10.00', 'Goodwill'), 201);
    const orderId = await placeOrder(shopper, shopper.email);
    const [order] = await q<{ credit_applied: string; total: string }>('select credit_applied::text, total::text from orders where id = $1', [orderId]);
    expect(order).toEqual({ credit_applied: '10.00', total: '31.59' });

    // Paid by credit ($10.00) and card ($21.59): the spend is the order's total.
    expect(await detail(shopper.id)).toMatchObject({ orderCount: 1, lifetimeSpend: 3159, refunded: 0, averageOrder: 3159 });

    // A refund to store credit is a refund: it comes off the spend, in the statement that writes it.
    await json(await refund(orderId, { amount: '5.00', reason: 'Leaking refill', method: 'credit' }), 201);
    let c = await detail(shopper.id);
    expect(c).toMatchObject({ lifetimeSpend: 2659, refunded: 500 });
    expect(c.orders[0]).toMatchObject({ id: orderId, total: 3159, refunded: 500 });
    const [list] = (await json(await support.request(`/api/admin/customers?q=${encodeURIComponent(shopper.email)}&sort=spend`), 200)).customers as { lifetimeSpend: number }[];
    expect(list!.lifetimeSpend).toBe(2659);

    // A card refund as well: both count, the card's and the credit's.
    await q("insert into payment_transactions (order_id, amount, status, kind, reason) values ($1, 2, 'approved', 'refund', 'Card part')", [orderId]);
    c = await detail(shopper.id);
    expect(c).toMatchObject({ lifetimeSpend: 2459, refunded: 700 });
    expect(c.orders[0]).toMatchObject({ refunded: 700 });

    // Spending the refunded credit on a new order is new spend (the order's total), not a refund undone.
    const second = await placeOrder(shopper, shopper.email);
    const [paid] = await q<{ credit_applied: string }>('select credit_applied::text from orders where id = $1', [second]);
    expect(paid!.credit_applied).toBe('5.00');
    expect(await detail(shopper.id)).toMatchObject({ orderCount: 2, lifetimeSpend: 2459 + 3159, refunded: 700 });

    // The recount from scratch agrees with what the triggers kept.
    const [kept] = await q<{ spend_cents: string; refunded_cents: string }>('select spend_cents::text, refunded_cents::text from customers where id = $1', [shopper.id]);
    await q('select customer_refresh($1)', [shopper.id]);
    expect(await q('select spend_cents::text, refunded_cents::text from customers where id = $1', [shopper.id])).toEqual([kept]);
  });

  it('never counts more refunded than the order cost', async () => {
    const shopper = await signUpShopper(api, 'figures-cap');
    const orderId = await placeOrder(shopper, shopper.email);
    await json(await refund(orderId, { amount: '31.59', reason: 'All of it', method: 'credit' }), 201);
    expect(await detail(shopper.id)).toMatchObject({ orderCount: 1, lifetimeSpend: 0, refunded: 3159 });
  });
});
