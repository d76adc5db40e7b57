/**
 * Consent on record (issue 22): price-change notices and what renewals charge. A plan whose price per
 * delivery rose above the price its shopper agreed to (staff changed its items, a bulk swap) is sent one
 * notice by the daily sweep (old and new price, first charge day at least 7 days on, a cancel link) before
 * the first charge at the new price; a drop or an unchanged price sends none; a renewal before the notified
 * day charges the price agreed before (the shop absorbs the rise). Housekeeping never deletes a consent.
 */
import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, pricePlan } from '@nh/shared';
import { billingPeriodOf, nextBillingDate } from '@nh/shared/contracts/subscriptions';
import * as tables from '@nh/server/db/schema';
import { LocalSandboxGateway } from '@nh/server/payments';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis, type Redis } from '@nh/server/runtime/redis';
import { localFileStorage } from '@nh/server/storage';
import { email as priceChangeEmail } from '../src/emails/subscription-price-change';
import type { MailMessage } from '../src/emails/mail/transport';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';
import { sendPriceNotices } from '../src/renewals/price-notices';
import { renewSubscription } from '../src/renewals/renew';
import { storedTestCard, TEST_ADDRESS } from './support/sandbox-card';
import { createTestDatabase, tempDir, testWorkerConfig, type TestDatabase } from './support/setup';

let tdb: TestDatabase;
let redis: Redis;
let gateway: LocalSandboxGateway;
const log = createLogger('price-notices-test', 'silent');
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => tdb.db.$client.query<T>(text, values).then((r) => r.rows);
const DAY_MS = 86_400_000;

beforeAll(async () => {
  tdb = await createTestDatabase('pricenotice');
  const config = testWorkerConfig(tdb.url, 'pricenotice');
  redis = createRedis(config.REDIS_URL);
  gateway = new LocalSandboxGateway({ redis, keyPrefix: config.QUEUE_PREFIX });
});
afterAll(async () => {
  redis?.disconnect();
  await tdb?.drop();
});

/** The plan price of 2 of a product at `unit` cents. */
const priceOf = (unit: number) => pricePlan([{ price: unit, quantity: 2 }], null).renewal.total;
const AGREED = priceOf(1250); // $22.95
const RAISED = priceOf(1350); // $24.79

/** A plan of 2 × a fresh product at `unit`, its amount the plan price of that, agreed at `agreed`, due `next`. */
async function insertPlan(unit: number, agreed: number, next: Date) {
  const [p] = await tdb.db
    .insert(tables.products)
    .values({ name: `Notice ${randomUUID().slice(0, 6)}`, slug: `notice-${randomUUID().slice(0, 8)}`, price: unit, inventory: 50, status: 'active' })
    .returning({ id: tables.products.id, name: tables.products.name });
  const profile = await storedTestCard(gateway);
  const [plan] = await tdb.db
    .insert(tables.subscriptions)
    .values({
      customerEmail: 'notice@example.com',
      customerName: 'Nora Notice',
      items: [{ productId: p!.id, productName: p!.name, variantSku: null, sku: null, itemNumber: null, quantity: 2, price: centsToDecimal(unit) }],
      amount: priceOf(unit),
      agreedAmount: agreed,
      nextBillingDate: next,
      shippingAddress: TEST_ADDRESS,
      authnetCustomerProfileId: profile.customerProfileId,
      authnetPaymentProfileId: profile.paymentProfileId,
    })
    .returning({ id: tables.subscriptions.id, nextBillingDate: tables.subscriptions.nextBillingDate });
  return plan!;
}
const agreedOf = (id: string) =>
  q<{ agreed: number; from: string | null; prior: number | null }>(
    `select (agreed_amount * 100)::int as agreed, to_char(agreed_amount_from, 'YYYY-MM-DD') as "from", (prior_agreed_amount * 100)::int as prior from subscriptions where id = $1`,
    [id],
  ).then((r) => r[0]!);
const noticesOf = (id: string) =>
  q<{ id: number; from: number; to: number; first: string }>(
    `select id::int, (from_amount * 100)::int as "from", (to_amount * 100)::int as "to", to_char(first_charge_on, 'YYYY-MM-DD') as first from subscription_price_notices where subscription_id = $1 order by id`,
    [id],
  );
const outboxOf = (id: string) => q<{ payload: Record<string, unknown> }>(`select payload from outbox where topic = 'subscription.price-notice' and payload->>'subscriptionId' = $1`, [id]);
const inDays = (days: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + days * DAY_MS + 14 * 3_600_000);

/** Sends the price-change email of `payload` through its job's handler, into `sent`. */
async function sendEmail(payload: Record<string, unknown>, sent: MailMessage[]) {
  const mailer = { description: 'test', close: () => undefined, send: async (m: MailMessage) => (sent.push(m), { messageId: `m-${sent.length}` }) };
  const handler = priceChangeEmail.handler({ db: tdb.db, mailer, log } as never);
  return handler({ id: `t-${randomUUID()}`, name: priceChangeEmail.name } as Job, payload as never);
}

describe('the price-change notice', () => {
  it('is sent once for a rise, at least 7 days before the first charge at the new price, with both prices and a cancel link', async () => {
    const plan = await insertPlan(1350, AGREED, inDays(20));
    const first = await sendPriceNotices(tdb.db, log);
    expect(first.noticed).toContain(plan.id);
    const day = billingPeriodOf(plan.nextBillingDate);
    expect(await noticesOf(plan.id)).toEqual([{ id: expect.any(Number), from: AGREED, to: RAISED, first: day }]);
    expect(await agreedOf(plan.id)).toEqual({ agreed: RAISED, from: day, prior: AGREED });
    const [row] = await outboxOf(plan.id);
    const [notice] = await noticesOf(plan.id);
    expect(row!.payload).toEqual({ subscriptionId: plan.id, noticeId: notice!.id });

    // A second sweep sends nothing more.
    expect((await sendPriceNotices(tdb.db, log)).noticed).not.toContain(plan.id);
    expect(await noticesOf(plan.id)).toHaveLength(1);

    // The email: old and new price per delivery, the first day at it, the cancel link; sent once.
    const sent: MailMessage[] = [];
    expect(await sendEmail(row!.payload, sent)).toMatchObject({ outcome: 'sent' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('notice@example.com');
    expect(sent[0]!.text).toContain(`from $22.95 to $24.79 per delivery`);
    const words = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' }).format(plan.nextBillingDate);
    expect(sent[0]!.text).toContain(`The first delivery charged at $24.79 is the one of ${words}.`);
    // The cancel link: a one-click `cancel` email action for the plan's next delivery, only its hash stored.
    const link = /Cancel before .*: http:\/\/localhost:5000\/email-actions\/([A-Za-z0-9_-]{43})$/m.exec(sent[0]!.text);
    expect(link).not.toBeNull();
    expect(sent[0]!.html).toContain(`href="http://localhost:5000/email-actions/${link![1]}"`);
    const tokens = await q<{ action: string; billing_period: string; token_hash: string }>(
      `select action, to_char(billing_period, 'YYYY-MM-DD') as billing_period, token_hash from email_action_tokens where subscription_id = $1`,
      [plan.id],
    );
    expect(tokens).toEqual([{ action: 'cancel', billing_period: billingPeriodOf(plan.nextBillingDate), token_hash: hashSingleUseToken(link![1]!) }]);
    expect(JSON.stringify(row!.payload)).not.toContain(link![1]);
    expect(await sendEmail(row!.payload, sent)).toMatchObject({ outcome: 'skipped', reason: 'already sent' });
    expect(sent).toHaveLength(1);
  });

  it('reaches every changed plan, a keyset page at a time (a catalogue price change reaches many plans at once)', async () => {
    const plans = await Promise.all([1, 2, 3, 4, 5].map(() => insertPlan(1350, AGREED, inDays(20))));
    const result = await sendPriceNotices(tdb.db, log, undefined, 2);
    for (const plan of plans) expect(result.noticed).toContain(plan.id);
    for (const plan of plans) expect(await noticesOf(plan.id)).toHaveLength(1);
  });

  it('is not sent for a drop (the agreed price follows it down) nor for an unchanged price', async () => {
    const dropped = await insertPlan(1250, RAISED, inDays(20));
    const unchanged = await insertPlan(1250, AGREED, inDays(20));
    const result = await sendPriceNotices(tdb.db, log);
    expect(result.dropped).toContain(dropped.id);
    expect(result.noticed).not.toContain(dropped.id);
    expect(result.noticed).not.toContain(unchanged.id);
    expect(await agreedOf(dropped.id)).toEqual({ agreed: AGREED, from: null, prior: null });
    expect(await noticesOf(dropped.id)).toEqual([]);
    expect(await noticesOf(unchanged.id)).toEqual([]);
    expect(await outboxOf(dropped.id)).toEqual([]);
  });

  it('sent late (the delivery is less than 7 days away): that delivery is charged the price agreed before, the next one the new price', async () => {
    const plan = await insertPlan(1350, AGREED, new Date(Date.now() - 3_600_000));
    await sendPriceNotices(tdb.db, log);
    const next = billingPeriodOf(nextBillingDate(plan.nextBillingDate));
    expect(await noticesOf(plan.id)).toEqual([{ id: expect.any(Number), from: AGREED, to: RAISED, first: next }]);
    const result = await renewSubscription({ db: tdb.db, gateway, log }, plan.id, billingPeriodOf(plan.nextBillingDate));
    expect(result.outcome).toBe('approved');
    const charged = () => q<{ cents: number }>(`select (amount * 100)::int as cents from payment_transactions where subscription_id = $1 and status = 'approved' order by created_at`, [plan.id]);
    expect((await charged()).map((r) => r.cents)).toEqual([AGREED]);
    // The order says so: its total is the agreed price, the difference a price lock in its discount.
    const [order] = await q<{ total: number }>(`select (total * 100)::int as total from orders where subscription_id = $1 and status = 'processing'`, [plan.id]);
    expect(order!.total).toBe(AGREED);

    // The delivery of the notified day is charged the new price (the day made due now: the database's clock cannot move).
    const [due] = await q<{ next_billing_date: Date }>(`update subscriptions set next_billing_date = now() - interval '2 days', agreed_amount_from = (now() - interval '2 days')::date where id = $1 returning next_billing_date`, [plan.id]);
    expect((await renewSubscription({ db: tdb.db, gateway, log }, plan.id, billingPeriodOf(due!.next_billing_date))).outcome).toBe('approved');
    expect((await charged()).map((r) => r.cents)).toEqual([AGREED, RAISED]);
  });

  it('a rise with no notice yet (the sweep has not run) is charged at the price agreed', async () => {
    const plan = await insertPlan(1350, AGREED, new Date(Date.now() - 3_600_000));
    expect((await renewSubscription({ db: tdb.db, gateway, log }, plan.id, billingPeriodOf(plan.nextBillingDate))).outcome).toBe('approved');
    const [paid] = await q<{ cents: number }>(`select (amount * 100)::int as cents from payment_transactions where subscription_id = $1 and status = 'approved'`, [plan.id]);
    expect(paid!.cents).toBe(AGREED);
  });
});

describe('housekeeping', () => {
  it('keeps every consent and notice, however old', async () => {
    const plan = await insertPlan(1250, AGREED, inDays(20));
    await tdb.db.insert(tables.subscriptionConsents).values({
      subscriptionId: plan.id,
      termsVersion: 'sns-terms-2026-11-28',
      termsText: 'Subscribe & Save 15%',
      amountCents: AGREED,
      interval: 'monthly',
      intervalCount: 1,
      agreedAt: new Date(Date.now() - 4 * 365 * DAY_MS),
      shippingAddress: TEST_ADDRESS,
      userAgent: 'Old Browser/1.0',
      ipAddress: '203.0.113.9',
    });
    await q(`insert into subscription_price_notices (subscription_id, from_amount, to_amount, first_charge_on, created_at) values ($1, 20, 22.95, '2022-01-01', now() - interval '4 years')`, [plan.id]);
    const housekeeping = createHousekeepingProcessor({ db: tdb.db, log, retentionDays: 7, ledgerRetentionDays: 90, exportFiles: localFileStorage(tempDir('hk-consent')) });
    await housekeeping({ id: 'hk-consent' } as Job);
    expect(await q(`select user_agent, ip_address from subscription_consents where subscription_id = $1`, [plan.id])).toEqual([{ user_agent: 'Old Browser/1.0', ip_address: '203.0.113.9' }]);
    expect(await noticesOf(plan.id)).toHaveLength(1);
    // Nor can a plan with a consent be deleted from under it.
    await expect(q(`delete from subscriptions where id = $1`, [plan.id])).rejects.toThrow(/foreign key/);
  });
});
