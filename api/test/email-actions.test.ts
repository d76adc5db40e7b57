/**
 * One-click actions from emails (issue 22): GET /api/email-actions/{token} shows what the link does and
 * changes nothing (nor does HEAD: link scanners and previews); POST does it through the shopper's own
 * service, recorded as the customer's change "via email link", the link spent in the same transaction.
 * A used link answers 410 (used); a link whose delivery was charged, skipped or moved answers 410 (stale);
 * a link acts on its own plan only; the endpoints are rate-limited as the other emailed links'.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSubscriptionDetailSchema } from '@nh/shared/contracts/admin-subscriptions';
import { EMAIL_ACTION_MESSAGES as MSG, emailActionResultSchema, emailActionViewSchema } from '@nh/shared/contracts/email-actions';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { mintEmailActionToken, type EmailActionPurpose } from '@nh/server/queries/subscriptions/email-actions';
import { hashSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { startTestApi, type TestApi } from './support/harness';
import { insertPlan as insertPlanRow, type PlanOptions } from './support/plans';
import { signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let me: Shopper;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

beforeAll(async () => {
  // Each request comes "from" an address of its own (X-Forwarded-For behind a trusted proxy), so the
  // per-address limit of the link endpoints is tested on its own below.
  api = await startTestApi({ TRUST_PROXY: 'true' });
  support = await signInAs(api, 'support');
  me = await signUpShopper(api, 'emailaction');
});
afterAll(() => api.close());

const DAY_MS = 86_400_000;
const somewhere = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const link = (token: string, init: { method?: string; body?: unknown } = {}) =>
  api.request(`/api/email-actions/${token}`, { ...init, headers: { 'x-forwarded-for': somewhere() } });
const confirm = (token: string, body: unknown = {}) => link(token, { method: 'POST', body });

/** A catalogue product of our own (ship-now checks its stock). */
async function product() {
  const name = `Email Action ${randomUUID().slice(0, 8)}`;
  const [row] = await q<{ id: number; name: string }>(
    `insert into products (name, slug, price, inventory, status, sku) values ($1, $2, '12.50', 50, 'active', $3) returning id, name`,
    [name, name.toLowerCase().replace(/\s+/g, '-'), `EA-${name.slice(-8)}`],
  );
  return row!;
}

async function insertPlan(o: PlanOptions = {}) {
  const p = await product();
  return insertPlanRow(api, me.id, {
    items: [{ productId: p.id, productName: p.name, quantity: 2, price: '12.50' }],
    cardExpiresOn: '2030-12-31',
    ...o,
  });
}

/** A token as the mail worker makes it (the raw value only here, as in the email). */
async function mint(purpose: Omit<EmailActionPurpose, 'period'> & { period?: string }, plan: { nextBillingDate: Date }): Promise<string> {
  const token = await mintEmailActionToken(api.ctx.db.$client, { period: billingPeriodOf(plan.nextBillingDate), ...purpose });
  return token!;
}

const planRow = (id: string) =>
  q<{ status: string; next_billing_date: Date; interval_count: number }>(
    'select status, next_billing_date, interval_count from subscriptions where id = $1',
    [id],
  ).then((r) => r[0]!);
const changesOf = (id: string) =>
  q<{ actor: string; kind: string; via: string | null; after: Record<string, unknown> }>(
    'select actor, kind, via, after from subscription_changes where subscription_id = $1 order by id',
    [id],
  );
const tokenRow = (token: string) =>
  q<{ used_at: Date | null }>('select used_at from email_action_tokens where token_hash = $1', [hashSingleUseToken(token)]).then(
    (r) => r[0],
  );

async function expectGone(res: Response, code: 'EMAIL_ACTION_USED' | 'EMAIL_ACTION_STALE') {
  expect(res.status).toBe(410);
  expect(await res.json()).toMatchObject({ code, message: code === 'EMAIL_ACTION_USED' ? MSG.used : MSG.stale });
}

describe('skip this delivery', () => {
  it('GET names the plan, the delivery and the effect, and HEAD and GET change nothing; POST skips it as the customer via email link; a second POST is refused', async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'skip' }, plan);
    const before = await planRow(plan.id);

    const view = emailActionViewSchema.parse(await (await link(token)).json());
    expect(view).toMatchObject({
      action: 'skip',
      label: 'Skip this delivery',
      status: 'active',
      deliveryDate: plan.nextBillingDate.toISOString(),
      newIntervalCount: null,
    });
    expect(view.productNames[0]).toMatch(/^Email Action .* × 2$/);
    expect(view.effect).toContain('skipped');
    expect((await link(token, { method: 'HEAD' })).status).toBe(200);
    expect((await link(token)).status).toBe(200);
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changesOf(plan.id)).toEqual([]);
    expect((await tokenRow(token))!.used_at).toBeNull();

    const res = await confirm(token);
    expect(res.status).toBe(200);
    const result = emailActionResultSchema.parse(await res.json());
    const after = await planRow(plan.id);
    expect(after.next_billing_date.getTime()).toBeGreaterThan(plan.nextBillingDate.getTime() + 27 * DAY_MS);
    expect(result).toMatchObject({ action: 'skip', status: 'active', nextBillingDate: after.next_billing_date.toISOString() });
    expect(
      await q('select billing_period::text as period, reason from subscription_skipped_periods where subscription_id = $1', [plan.id]),
    ).toEqual([{ period: billingPeriodOf(plan.nextBillingDate), reason: 'shopper-skip' }]);
    expect(await changesOf(plan.id)).toEqual([expect.objectContaining({ actor: 'customer', kind: 'skipped', via: 'email-link' })]);
    expect((await tokenRow(token))!.used_at).not.toBeNull();

    await expectGone(await confirm(token), 'EMAIL_ACTION_USED');
    await expectGone(await link(token), 'EMAIL_ACTION_USED');
    expect(await changesOf(plan.id)).toHaveLength(1);

    // Staff see the change in words on the plan page's data: the customer's, via email link.
    const detail = adminSubscriptionDetailSchema.parse(await (await support.request(`/api/admin/subscriptions/${plan.id}`)).json());
    expect(detail.customerChanges).toEqual([expect.objectContaining({ actor: 'customer', kind: 'skipped', via: 'email-link' })]);
  });

  it('is stale once the delivery was charged (the plan moved on): GET and POST answer 410 and nothing changes', async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'skip' }, plan);
    // The renewal charged this period: the plan's next billing date is a month on.
    await q(`update subscriptions set next_billing_date = next_billing_date + interval '1 month' where id = $1`, [plan.id]);
    const before = await planRow(plan.id);
    await expectGone(await link(token), 'EMAIL_ACTION_STALE');
    await expectGone(await confirm(token), 'EMAIL_ACTION_STALE');
    expect(await planRow(plan.id)).toEqual(before);
    expect(await changesOf(plan.id)).toEqual([]);
  });

  it('acts on its own plan only: another plan of the same shopper is untouched, and an unknown token is 404', async () => {
    const mine = await insertPlan();
    const other = await insertPlan({ dueInDays: 12 });
    const token = await mint({ subscriptionId: mine.id, action: 'skip' }, mine);
    const otherBefore = await planRow(other.id);
    expect((await confirm(token)).status).toBe(200);
    expect(await planRow(other.id)).toEqual(otherBefore);
    expect(await changesOf(other.id)).toEqual([]);
    // Another plan's token for the same period and action is its own row: this plan's used link does not spend it.
    const otherToken = await mint({ subscriptionId: other.id, action: 'skip' }, other);
    expect((await link(otherToken)).status).toBe(200);

    const unknown = await link(randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'EMAIL_ACTION_INVALID', message: MSG.invalid });
    expect((await link('not a token')).status).toBe(404);
  });

  it('a newer email for the same plan, period and action replaces the link: the earlier token opens nothing', async () => {
    const plan = await insertPlan();
    const first = await mint({ subscriptionId: plan.id, action: 'skip' }, plan);
    const second = await mint({ subscriptionId: plan.id, action: 'skip' }, plan);
    expect((await link(first)).status).toBe(404);
    expect((await link(second)).status).toBe(200);
    expect(await q('select count(*)::int as n from email_action_tokens where subscription_id = $1', [plan.id])).toEqual([{ n: 1 }]);
  });
});

describe('delay two weeks', () => {
  it('moves the delivery 14 days later (same time of day), via email link; then the other links of that delivery are stale', async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'delay' }, plan);
    const skip = await mint({ subscriptionId: plan.id, action: 'skip' }, plan);
    expect(emailActionViewSchema.parse(await (await link(token)).json()).effect).toContain('two weeks later');
    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect((await planRow(plan.id)).next_billing_date.toISOString()).toBe(
      new Date(plan.nextBillingDate.getTime() + 14 * DAY_MS).toISOString(),
    );
    expect(await changesOf(plan.id)).toEqual([expect.objectContaining({ kind: 'rescheduled', via: 'email-link' })]);
    await expectGone(await confirm(token), 'EMAIL_ACTION_USED');
    await expectGone(await confirm(skip), 'EMAIL_ACTION_STALE');
  });
});

describe('ship now', () => {
  it('asks the renewal for today once, with a key derived from the link on the server: a double confirm charges once', async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'ship-now' }, plan);
    const [a, b] = await Promise.all([confirm(token), confirm(token)]);
    expect([a.status, b.status].sort()).toEqual([200, 410]);
    const [row] = await q<{ id: string }>('select id from email_action_tokens where token_hash = $1', [hashSingleUseToken(token)]);
    const keyHash = createHash('sha256').update(`email-action:${row!.id}`).digest('hex');
    expect(await q('select key_hash from subscription_ship_nows where subscription_id = $1', [plan.id])).toEqual([{ key_hash: keyHash }]);
    expect(
      await q(`select count(*)::int as n from outbox where topic = 'subscription.ship-now-requested' and payload->>'subscriptionId' = $1`, [
        plan.id,
      ]),
    ).toEqual([{ n: 1 }]);
    expect(await changesOf(plan.id)).toEqual([expect.objectContaining({ actor: 'customer', kind: 'ship-now', via: 'email-link' })]);
    await expectGone(await confirm(token), 'EMAIL_ACTION_USED');
  });
});

describe('change to every N months', () => {
  it("changes the cadence to the link's (one of PLAN_CADENCE_MONTHS) via email link", async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'cadence', intervalCount: 2 }, plan);
    const view = emailActionViewSchema.parse(await (await link(token)).json());
    expect(view).toMatchObject({ action: 'cadence', label: 'Deliver every 2 months', newIntervalCount: 2, intervalCount: 1 });
    expect((await confirm(token)).status).toBe(200);
    expect((await planRow(plan.id)).interval_count).toBe(2);
    expect(await changesOf(plan.id)).toEqual([expect.objectContaining({ kind: 'frequency', via: 'email-link' })]);
    await expectGone(await confirm(token), 'EMAIL_ACTION_USED');
  });

  it('a cadence the shop no longer offers is refused (422) and the link stays unused', async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'cadence', intervalCount: 5 }, plan);
    const res = await confirm(token);
    expect(res.status).toBe(422);
    expect((await planRow(plan.id)).interval_count).toBe(1);
    expect((await tokenRow(token))!.used_at).toBeNull();
  });
});

describe('cancel', () => {
  it("cancels in one POST with the optional reason, recorded as the customer's via email link and in the cancellations report", async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'cancel' }, plan);
    expect(emailActionViewSchema.parse(await (await link(token)).json())).toMatchObject({ action: 'cancel', label: 'Cancel subscription' });
    expect((await planRow(plan.id)).status).toBe('active');
    const bad = await confirm(token, { reason: 'bored' });
    expect(bad.status).toBe(400);
    expect((await planRow(plan.id)).status).toBe('active');
    const res = await confirm(token, { reason: 'price', comment: 'Too dear' });
    expect(res.status).toBe(200);
    expect(emailActionResultSchema.parse(await res.json())).toMatchObject({ action: 'cancel', status: 'cancelled' });
    expect(await changesOf(plan.id)).toEqual([
      expect.objectContaining({
        kind: 'cancelled',
        via: 'email-link',
        after: { status: 'cancelled', reason: 'price', comment: 'Too dear' },
      }),
    ]);
    expect(await q('select reason, comment from subscription_cancellations where subscription_id = $1', [plan.id])).toEqual([
      { reason: 'price', comment: 'Too dear' },
    ]);
    await expectGone(await confirm(token), 'EMAIL_ACTION_USED');
  });

  it('a plan cancelled meanwhile makes its links stale', async () => {
    const plan = await insertPlan();
    const token = await mint({ subscriptionId: plan.id, action: 'skip' }, plan);
    await q(`update subscriptions set status = 'cancelled', cancelled_at = now() where id = $1`, [plan.id]);
    await expectGone(await link(token), 'EMAIL_ACTION_STALE');
    await expectGone(await confirm(token), 'EMAIL_ACTION_STALE');
  });
});

describe("the email action endpoints' limit", () => {
  it("answers 429 after 30 tries an hour from one address (guessing tokens), as the other emailed links' endpoints", async () => {
    const own = await startTestApi();
    try {
      const guess = () => own.request(`/api/email-actions/${randomBytes(32).toString('base64url')}`);
      for (let i = 0; i < 30; i++) expect((await guess()).status).toBe(404);
      const limited = await guess();
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({ message: MSG.tooManyTries });
    } finally {
      await own.close();
    }
  });
});
