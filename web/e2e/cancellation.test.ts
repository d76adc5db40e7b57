/**
 * Issue 22 in Chromium at 360 px: the cancel dialog shows the save offer matched to the reason with the
 * "Cancel Subscription" button beside it on the same screen; one click cancels; the report counts it.
 * Taking the offer instead is one request: the plan changes and the offer is recorded accepted together.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCEL_REASONS, type CancellationReport } from '@nh/shared/contracts/cancellation';
import { SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { signInAs } from '../../api/test/support/staff';
import { startE2eApp, type E2eApp } from './support/app';
import { toast } from './support/page-helpers';
import { registerShopper } from './support/shop';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(() => app?.close());

describe('cancelling with a save offer (360 px)', () => {
  it('shows the offer beside the cancel button, cancels in one click, and the report counts it', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 740 } });
    const email = `e2e-cancel-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto('/api/login');
    await registerShopper(page, email);
    const q = app.api.ctx.db.$client;
    const [{ id: userId }] = (await q.query<{ id: string }>(`select id from users where email = $1`, [email])).rows as [{ id: string }];
    const items = [{ productId: 1, productName: 'E2E Cancel Cleaner', quantity: 1, price: '20.00', variantSku: null, sku: null, itemNumber: null }];
    const [{ id: planId }] = (
      await q.query<{ id: string }>(
        `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, shipping_address, authnet_customer_profile_id, authnet_payment_profile_id)
         values ($1, $2, 'Rachel Carson', $3, '18.36', now() + interval '10 days', 'active', $4, '111', '222') returning id`,
        [userId, email, JSON.stringify(items), JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
      )
    ).rows as [{ id: string }];

    const manager = await signInAs(app.api, 'manager');
    const today = new Date().toISOString().slice(0, 10);
    const priceCount = async () => {
      const report = (await (await manager.request(`/api/admin/reports/cancellations?from=${today}&to=${today}`)).json()) as CancellationReport;
      return report.weeks.at(-1)?.cancellations.find((c) => c.reason === CANCEL_REASONS.price)?.count ?? 0;
    };
    const before = await priceCount();

    await page.goto('/subscriptions');
    const active = page.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByRole('button', { name: /^Cancel Subscription/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this subscription?' });
    await dialog.getByRole('radio', { name: CANCEL_REASONS.price }).check();
    const offer = dialog.getByTestId('cancel-offer');
    await offer.getByRole('button', { name: /^Take \d+% off$/ }).waitFor();
    const cancel = dialog.getByRole('button', { name: 'Cancel Subscription', exact: true });
    // Both on the same screen, inside the 360 px viewport.
    for (const box of [await offer.boundingBox(), await cancel.boundingBox()]) {
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    }
    expect(await cancel.isEnabled()).toBe(true);
    await cancel.click();
    await toast(page, SUBSCRIPTION_MESSAGES.cancelled);

    const row = (await q.query<{ reason: string | null }>(`select reason from subscription_cancellations where subscription_id = $1`, [planId])).rows[0];
    expect(row?.reason).toBe('price');
    expect((await priceCount()) - before).toBe(1);
  });

  it('takes the offer instead in one request: the plan delivers less often, the offer is counted as accepted, nothing is cancelled', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 740 } });
    const email = `e2e-save-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto('/api/login');
    await registerShopper(page, email);
    const q = app.api.ctx.db.$client;
    const [{ id: userId }] = (await q.query<{ id: string }>(`select id from users where email = $1`, [email])).rows as [{ id: string }];
    const items = [{ productId: 1, productName: 'E2E Save Cleaner', quantity: 1, price: '20.00', variantSku: null, sku: null, itemNumber: null }];
    const [{ id: planId }] = (
      await q.query<{ id: string }>(
        `insert into subscriptions (user_id, customer_email, customer_name, items, amount, next_billing_date, status, shipping_address, authnet_customer_profile_id, authnet_payment_profile_id)
         values ($1, $2, 'Rachel Carson', $3, '18.36', now() + interval '10 days', 'active', $4, '111', '222') returning id`,
        [userId, email, JSON.stringify(items), JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' })],
      )
    ).rows as [{ id: string }];

    await page.goto('/subscriptions');
    const active = page.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByRole('button', { name: /^Cancel Subscription/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this subscription?' });
    await dialog.getByRole('radio', { name: CANCEL_REASONS['too-much'] }).check();
    await dialog.getByTestId('cancel-offer').getByRole('button', { name: 'Deliver every 2 months' }).click();
    await toast(page, 'Done: your plan is updated and stays active.');

    const plan = (await q.query<{ interval_count: number; status: string }>(`select interval_count, status from subscriptions where id = $1`, [planId])).rows[0];
    expect(plan).toEqual({ interval_count: 2, status: 'active' });
    const offers = (await q.query<{ kind: string; accepted: boolean }>(`select kind, accepted_at is not null as accepted from subscription_cancel_offers where subscription_id = $1`, [planId])).rows;
    expect(offers).toEqual([{ kind: 'longer-cadence', accepted: true }]);
    expect((await q.query(`select 1 from subscription_cancellations where subscription_id = $1`, [planId])).rows).toEqual([]);
  });
});
