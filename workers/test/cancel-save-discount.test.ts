/**
 * Issue 22: a save offer's discount on the next delivery (subscriptions.next_delivery_discount_percent,
 * set when the shopper accepts it in the cancel dialog) is taken by exactly one renewal: the approved one.
 * A declined renewal keeps it for the retry; the renewal after the approved one is at the usual price.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, pricePlan, priceRenewal, withNextDeliveryDiscount } from '@nh/shared';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import * as tables from '@nh/server/db/schema';
import { LocalSandboxGateway, SANDBOX_DECLINE_ZIP } from '@nh/server/payments';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { renewSubscription } from '../src/renewals/renew';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { createTestDatabase, testWorkerConfig, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let redis: Redis;
let gateway: LocalSandboxGateway;
const log = createLogger('cancel-save-discount-test', 'silent');
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  tdb = await createTestDatabase('cancelsave');
  const config = testWorkerConfig(tdb.url, 'cancelsave');
  redis = createRedis(config.REDIS_URL);
  gateway = new LocalSandboxGateway({ redis, keyPrefix: config.QUEUE_PREFIX });
});
afterAll(async () => {
  redis?.disconnect();
  await tdb?.drop();
});

/** A plan for one of a fresh 20.00 product, due an hour ago, with a 15 % save discount on its next delivery. */
async function insertPlan(zip = TEST_ADDRESS.zip) {
  const [p] = await tdb.db
    .insert(tables.products)
    .values({ name: `Save Discount ${randomUUID().slice(0, 6)}`, slug: `save-discount-${randomUUID().slice(0, 8)}`, price: 2000, inventory: 50, status: 'active' })
    .returning({ id: tables.products.id, name: tables.products.name });
  const profile = await storedTestCard(gateway);
  const [plan] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      customerEmail: 'save@example.com',
      customerName: 'Sam Saver',
      items: [{ productId: p!.id, productName: p!.name, variantSku: null, sku: null, itemNumber: null, quantity: 1, price: centsToDecimal(2000) }],
      amount: pricePlan([{ price: 2000, quantity: 1 }], null).renewal.total,
      nextBillingDate: new Date(Date.now() - 3_600_000),
      shippingAddress: { ...TEST_ADDRESS, zip },
      authnetCustomerProfileId: profile.customerProfileId,
      authnetPaymentProfileId: profile.paymentProfileId,
      nextDeliveryDiscountPercent: 15,
    })
    .returning({ id: tables.subscriptions.id, nextBillingDate: tables.subscriptions.nextBillingDate });
  return plan!;
}

const usual = priceRenewal([{ price: 2000, quantity: 1 }], pricePlan([{ price: 2000, quantity: 1 }], null).renewal.total);
const discounted = withNextDeliveryDiscount(usual, 15);
const orderTotals = (id: string) => q<{ total: number }>(`select total::int as total from orders where subscription_id = $1 and status <> 'pending' order by created_at`, [id]);
const percentOf = (id: string) => q<{ p: number | null }>(`select next_delivery_discount_percent as p from subscriptions where id = $1`, [id]).then((r) => r[0]!.p);

describe('the save discount on the next delivery', () => {
  it('is 15 % off the lines before tax, shipping unchanged', () => {
    expect(discounted.discountedSubtotal).toBe(usual.discountedSubtotal - Math.round(usual.discountedSubtotal * 0.15));
    expect(discounted.shipping).toBe(usual.shipping);
    expect(discounted.total).toBeLessThan(usual.total);
    expect(withNextDeliveryDiscount(usual, null)).toBe(usual);
  });

  it('is taken by the approved renewal once; the next renewal is at the usual price', async () => {
    const plan = await insertPlan();
    const first = await renewSubscription({ db: tdb.db, gateway, log }, plan.id, billingPeriodOf(plan.nextBillingDate));
    expect(first.outcome).toBe('approved');
    expect(await percentOf(plan.id)).toBeNull();
    // The next delivery, made due now on another day than the first (the database's clock cannot move).
    const [next] = await q<{ next_billing_date: Date }>(`update subscriptions set next_billing_date = now() - interval '2 days' where id = $1 returning next_billing_date`, [plan.id]);
    const second = await renewSubscription({ db: tdb.db, gateway, log }, plan.id, billingPeriodOf(next!.next_billing_date));
    expect(second.outcome).toBe('approved');
    const [a, b] = await q<{ amount: string }>(`select amount::text from payment_transactions where subscription_id = $1 and kind = 'charge' and status = 'approved' order by created_at`, [plan.id]);
    expect(Math.round(Number(a!.amount) * 100)).toBe(discounted.total);
    expect(Math.round(Number(b!.amount) * 100)).toBe(usual.total);
    expect(await orderTotals(plan.id)).toHaveLength(2);
  });

  it('is kept for the retry when the renewal is declined', async () => {
    const plan = await insertPlan(SANDBOX_DECLINE_ZIP);
    const result = await renewSubscription({ db: tdb.db, gateway, log }, plan.id, billingPeriodOf(plan.nextBillingDate));
    expect(result.outcome).toBe('declined');
    expect(await percentOf(plan.id)).toBe(15);
  });
});
