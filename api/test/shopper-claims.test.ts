/**
 * Shoppers report a problem (issue 23; docs/decisions/claims.md): signed in on their own order, or a guest
 * through the emailed order link; the report lands in the staff queue awaiting review, once per
 * Idempotency-Key, unless the owner's rule (set by the owner only, audited) approves it as a replacement:
 * the customer's first claim in the window, worth at most the rule's amount.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailedToken } from './support/emailed-links';
import { placeClaimableOrder, rowsOf } from './support/claims';
import { Browser as TestBrowser } from './support/browser';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let owner: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => rowsOf(api)<T>(text, values);

beforeAll(async () => {
  api = await startTestApi();
  manager = await signInAs(api, 'manager');
  owner = await signInAs(api, 'owner');
});
afterAll(() => api.close());

const placeOrder = (shopper: Shopper | null, quantity = 2) => placeClaimableOrder(api, shopper, quantity);

/** A browser of this file's API. */
class Browser extends TestBrowser {
  constructor() {
    super(() => api.url);
  }
}

const REPORT = { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', note: 'The bottle was half empty in the box' };
const setRule = (body: Record<string, unknown>) => owner.request('/api/admin/claims/settings', { method: 'PUT', body });
const replacements = (orderId: string) => q('select id from orders where replacement_of_order_id = $1', [orderId]);

describe('a shopper reports a problem', () => {
  it('signed in, on their own order: awaiting review in the staff queue, once per key; another shopper’s order is not found', async () => {
    await json(await setRule({ autoApprove: false, maxAmount: '25.00', windowMonths: 12 }), 200);
    const shopper = await signUpShopper(api, 'claim-report');
    const { orderId } = await placeOrder(shopper);
    const key = randomUUID();
    const send = () => shopper.call(`/api/orders/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': key } });
    const [a, b] = [await send(), await send()];
    const first = await json(a, 201);
    expect(await json(b, 201)).toEqual(first);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(first).toMatchObject({
      status: 'awaiting_review',
      statusLabel: 'Awaiting review',
      resolution: null,
      message: expect.stringContaining('Our team will look at your report'),
    });
    const queue = (await json(await manager.request('/api/admin/claims?status=awaiting_review'), 200)) as unknown as Array<
      Record<string, unknown>
    >;
    expect(queue.find((c) => c.id === first.id)).toMatchObject({
      source: 'shopper',
      reasonLabel: 'Arrived leaking',
      note: REPORT.note,
      orderId,
      staffEmail: null,
    });
    expect(await replacements(orderId)).toEqual([]);

    const stranger = await signUpShopper(api, 'claim-stranger');
    expect(
      await json(await stranger.call(`/api/orders/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': randomUUID() } }), 404),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      (await api.request(`/api/orders/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': randomUUID() } })).status,
    ).toBe(401);
    expect(
      await json(
        await shopper.call(`/api/orders/${orderId}/claims`, {
          body: { ...REPORT, lines: [{ line: 0, quantity: 5 }] },
          headers: { 'idempotency-key': randomUUID() },
        }),
        422,
      ),
    ).toMatchObject({ code: 'CLAIM_OVER_CLAIMED' });
  });

  it('a guest, through the emailed order link in this browser only', async () => {
    const { orderId } = await placeOrder(null);
    const [order] = await q<{ customer_email: string }>('select customer_email from orders where id = $1', [orderId]);
    const email = order!.customer_email;
    const other = new Browser();
    expect(
      await json(
        await other.call(`/api/orders/guest/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': randomUUID() } }),
        403,
      ),
    ).toMatchObject({ code: 'GUEST_ORDER_ACCESS_ENDED' });

    await api.request('/api/orders/lookup', { body: { orderNumber: orderId.slice(0, 8), email } });
    const token = await emailedToken(api.ctx.db, 'order.link-requested', email);
    const guest = new Browser();
    expect((await guest.call('/api/orders/access', { body: { token } })).status).toBe(200);
    const made = await json(
      await guest.call(`/api/orders/guest/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': randomUUID() } }),
      201,
    );
    expect(made).toMatchObject({ status: 'awaiting_review' });
    expect(await q('select source, status from claims where order_id = $1', [orderId])).toEqual([
      { source: 'shopper', status: 'awaiting_review' },
    ]);
  });
});

describe('the owner’s auto-approval rule', () => {
  it('only the owner sets it, audited; a first claim under the amount becomes a replacement at once; a second in the window, or one worth more, waits for staff', async () => {
    expect(
      (
        await manager.request('/api/admin/claims/settings', {
          method: 'PUT',
          body: { autoApprove: true, maxAmount: '25.00', windowMonths: 12 },
        })
      ).status,
    ).toBe(403);
    expect(await json(await setRule({ autoApprove: true, maxAmount: 'lots', windowMonths: 12 }), 400)).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await json(await setRule({ autoApprove: true, maxAmount: '25.00', windowMonths: 12 }), 200)).toEqual({
      autoApprove: true,
      maxAmount: '25.00',
      windowMonths: 12,
    });
    expect(
      await q("select actor_email, after from audit_events where action = 'claims.settings_changed' order by id desc limit 1"),
    ).toEqual([{ actor_email: owner.email, after: { autoApprove: true, maxAmount: '25.00', windowMonths: 12 } }]);

    const shopper = await signUpShopper(api, 'claim-auto');
    const { orderId } = await placeOrder(shopper);
    // One refill is worth 16.60 (under 25.00): approved as a replacement.
    const first = await json(
      await shopper.call(`/api/orders/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': randomUUID() } }),
      201,
    );
    expect(first).toMatchObject({
      status: 'resolved',
      resolution: 'replace',
      resolutionLabel: 'Free replacement',
      message: expect.stringContaining('free replacement'),
    });
    expect(await replacements(orderId)).toHaveLength(1);
    const [audit] = await q<{ actor_email: string; actor_id: string | null }>(
      "select actor_email, actor_id from audit_events where entity_id = $1 and action = 'order.claim_resolved'",
      [orderId],
    );
    expect(audit).toEqual({ actor_email: 'Auto-approval rule', actor_id: null });
    // The second claim of the same customer within 12 months waits for staff.
    const second = await json(
      await shopper.call(`/api/orders/${orderId}/claims`, { body: REPORT, headers: { 'idempotency-key': randomUUID() } }),
      201,
    );
    expect(second).toMatchObject({ status: 'awaiting_review' });
    expect(await replacements(orderId)).toHaveLength(1);

    // Another customer's first claim worth more than the amount (two refills, 33.19) waits too.
    const big = await signUpShopper(api, 'claim-auto-big');
    const bigOrder = await placeOrder(big);
    expect(
      await json(
        await big.call(`/api/orders/${bigOrder.orderId}/claims`, {
          body: { ...REPORT, lines: [{ line: 0, quantity: 2 }] },
          headers: { 'idempotency-key': randomUUID() },
        }),
        201,
      ),
    ).toMatchObject({
      status: 'awaiting_review',
    });
    await json(await setRule({ autoApprove: false, maxAmount: '25.00', windowMonths: 12 }), 200);
  });
});
