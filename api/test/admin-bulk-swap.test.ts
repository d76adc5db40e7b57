/**
 * Bulk swap in the back office (issue 21), against the real database: the dry run's count and customers
 * (active, in dunning and paused plans; never ended ones), each refusal with its status and words, who
 * may do it (managers and owners), and the real run recorded with its audit row and the outbox row that
 * queues its job. (The job itself, and a worker killed mid-run: workers/test/bulk-swap.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import type { LineItem, ProductVariant } from '@nh/server/db/schema';
import { toCents } from '@nh/shared/money';
import { BULK_SWAP_DRY_RUN_LIST, BULK_SWAP_MESSAGES, bulkSwapDryRunSchema, bulkSwapRunSchema, bulkSwapRunsSchema, bulkSwapStartedSchema } from '@nh/shared/contracts/bulk-swap';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let fulfilment: StaffClient;
const TAG = `Swaptest${randomUUID().slice(0, 6)}`;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);

let productCount = 0;
async function makeProduct(input: { status?: 'active' | 'inactive'; variants?: ProductVariant[] } = {}): Promise<{ id: number; name: string }> {
  productCount++;
  const name = `${TAG} product ${productCount}`;
  const [row] = await api.ctx.db
    .insert(tables.products)
    .values({ name, slug: `${TAG.toLowerCase()}-${productCount}`, price: toCents('20.00'), inventory: 100, status: input.status ?? 'active', variants: input.variants ?? [] })
    .returning({ id: tables.products.id });
  return { id: row!.id, name };
}
const line = (product: { id: number; name: string }, quantity = 1, variantSku: string | null = null): LineItem => ({
  productId: product.id,
  productName: product.name,
  variantSku,
  sku: null,
  itemNumber: null,
  quantity,
  price: '20.00',
});

async function makePlan(items: LineItem[], input: { status?: 'active' | 'paused' | 'cancelled' | 'expired'; failedAttempts?: number } = {}): Promise<string> {
  const [row] = await api.ctx.db
    .insert(tables.subscriptions)
    .values({
      customerName: `${TAG} Customer`,
      customerEmail: `swap.${randomUUID().slice(0, 8)}@example.com`,
      items,
      amount: toCents('34.00'),
      nextBillingDate: new Date(Date.now() + 10 * 86_400_000),
      status: input.status ?? 'active',
      failedAttempts: input.failedAttempts ?? 0,
      shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    })
    .returning({ id: tables.subscriptions.id });
  return row!.id;
}

const swap = (client: StaffClient, body: Record<string, unknown>) => client.request('/api/admin/subscriptions/bulk-swap', { method: 'POST', body: { reason: 'Reformulated', dryRun: true, ...body } });
async function refusal(res: Response, status: number, code: string, message?: string) {
  const body = (await res.json()) as { code: string; message: string };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  if (message) expect(body.message).toBe(message);
}

let oldFormula: { id: number; name: string };
let newFormula: { id: number; name: string };
let sized: { id: number; name: string };
let retired: { id: number; name: string };
const SIZES: ProductVariant[] = [
  { label: 'Small', price: '10.00', sku: `${TAG}-S` },
  { label: 'Large', price: '18.00', sku: `${TAG}-L` },
];
const plans: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  [manager, support, fulfilment] = await Promise.all([signInAs(api, 'manager'), signInAs(api, 'support'), signInAs(api, 'fulfilment')]);
  oldFormula = await makeProduct();
  newFormula = await makeProduct();
  sized = await makeProduct({ variants: SIZES });
  retired = await makeProduct({ status: 'inactive' });
  plans.active = await makePlan([line(oldFormula, 2)]);
  plans.dunning = await makePlan([line(newFormula), line(oldFormula)], { failedAttempts: 2 });
  plans.paused = await makePlan([line(oldFormula)], { status: 'paused' });
  plans.cancelled = await makePlan([line(oldFormula)], { status: 'cancelled' });
  plans.expired = await makePlan([line(oldFormula)], { status: 'expired' });
  plans.other = await makePlan([line(newFormula)]);
  plans.small = await makePlan([line(sized, 1, `${TAG}-S`)]);
  plans.large = await makePlan([line(sized, 1, `${TAG}-L`)]);
  plans.gone = await makePlan([line(sized, 1, `${TAG}-XL`)]);
});
afterAll(() => api.close());

describe('the dry run (POST /api/admin/subscriptions/bulk-swap, dryRun: true)', () => {
  it('counts and names the active, in-dunning and paused plans with the product, never ended ones, and changes nothing', async () => {
    const res = await swap(manager, { fromProductId: oldFormula.id, toProductId: newFormula.id });
    expect(res.status).toBe(200);
    const answer = bulkSwapDryRunSchema.parse(await res.json());
    expect(answer.count).toBe(3);
    expect(answer.plans.map((p) => p.id).sort()).toEqual([plans.active, plans.dunning, plans.paused].sort());
    expect(answer.plans.find((p) => p.id === plans.paused)).toMatchObject({ status: 'paused', customerName: `${TAG} Customer` });
    expect(answer).toMatchObject({ from: oldFormula.name, to: newFormula.name });
    expect(await q('select 1 from bulk_swap_runs where from_product_id = $1', [oldFormula.id])).toHaveLength(0);
  });

  it('narrows to one size (a plan line\'s variantSku), and accepts a size no longer sold while a plan has it', async () => {
    const small = bulkSwapDryRunSchema.parse(await (await swap(manager, { fromProductId: sized.id, fromSize: `${TAG}-S`, toProductId: sized.id, toSize: `${TAG}-L` })).json());
    expect(small.plans.map((p) => p.id)).toEqual([plans.small]);
    expect(small).toMatchObject({ count: 1, from: `${sized.name} - Small`, to: `${sized.name} - Large` });
    const gone = bulkSwapDryRunSchema.parse(await (await swap(manager, { fromProductId: sized.id, fromSize: `${TAG}-XL`, toProductId: sized.id, toSize: `${TAG}-L` })).json());
    expect(gone.plans.map((p) => p.id)).toEqual([plans.gone]);
    // Every size of the product when no size is given.
    const every = bulkSwapDryRunSchema.parse(await (await swap(manager, { fromProductId: sized.id, toProductId: newFormula.id })).json());
    expect(every.count).toBe(3);
  });

  it(`names at most ${BULK_SWAP_DRY_RUN_LIST} customers, and counts them all`, async () => {
    const many = await makeProduct();
    for (let i = 0; i < BULK_SWAP_DRY_RUN_LIST + 2; i++) await makePlan([line(many)]);
    const answer = bulkSwapDryRunSchema.parse(await (await swap(manager, { fromProductId: many.id, toProductId: newFormula.id })).json());
    expect(answer.count).toBe(BULK_SWAP_DRY_RUN_LIST + 2);
    expect(answer.plans).toHaveLength(BULK_SWAP_DRY_RUN_LIST);
  });
});

describe('refusals', () => {
  it('answers 409 for an unknown product or size and for a product to swap to that is not on sale, 400 for the same product', async () => {
    await refusal(await swap(manager, { fromProductId: 999_999_999, toProductId: newFormula.id }), 409, 'BULK_SWAP_UNKNOWN_PRODUCT', BULK_SWAP_MESSAGES.unknownFrom);
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: 999_999_999 }), 409, 'BULK_SWAP_UNKNOWN_PRODUCT', BULK_SWAP_MESSAGES.unknownTo);
    await refusal(await swap(manager, { fromProductId: sized.id, fromSize: 'NOPE', toProductId: newFormula.id }), 409, 'BULK_SWAP_UNKNOWN_PRODUCT', BULK_SWAP_MESSAGES.unknownFromSize);
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: sized.id, toSize: 'NOPE' }), 409, 'BULK_SWAP_UNKNOWN_PRODUCT', BULK_SWAP_MESSAGES.unknownToSize);
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: sized.id }), 409, 'BULK_SWAP_UNKNOWN_PRODUCT', BULK_SWAP_MESSAGES.toNeedsSize);
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: newFormula.id, toSize: 'X' }), 409, 'BULK_SWAP_UNKNOWN_PRODUCT', BULK_SWAP_MESSAGES.toHasNoSizes);
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: retired.id }), 409, 'BULK_SWAP_PRODUCT_NOT_ACTIVE', BULK_SWAP_MESSAGES.toNotActive);
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: oldFormula.id }), 400, 'BULK_SWAP_SAME_PRODUCT', BULK_SWAP_MESSAGES.sameProduct);
    await refusal(await swap(manager, { fromProductId: sized.id, fromSize: `${TAG}-S`, toProductId: sized.id, toSize: `${TAG}-S` }), 400, 'BULK_SWAP_SAME_PRODUCT');
    // A real run refused the same way writes nothing.
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: retired.id, dryRun: false }), 409, 'BULK_SWAP_PRODUCT_NOT_ACTIVE');
    expect(await q('select 1 from bulk_swap_runs where to_product_id = $1', [retired.id])).toHaveLength(0);
  });

  it('answers 400 with a message for a bad request', async () => {
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: newFormula.id, reason: '  ' }), 400, 'VALIDATION_FAILED');
    await refusal(await swap(manager, { fromProductId: 'x', toProductId: newFormula.id }), 400, 'VALIDATION_FAILED');
    await refusal(await swap(manager, { fromProductId: oldFormula.id, toProductId: newFormula.id, dryRun: 'yes' }), 400, 'VALIDATION_FAILED');
  });

  it('is for managers and owners: support and fulfilment get 403 and nothing is written', async () => {
    for (const client of [support, fulfilment]) {
      await refusal(await swap(client, { fromProductId: oldFormula.id, toProductId: newFormula.id, dryRun: false }), 403, 'STAFF_FORBIDDEN');
      expect((await client.request('/api/admin/subscriptions/bulk-swap/runs')).status).toBe(403);
    }
    expect(await q('select 1 from bulk_swap_runs where from_product_id = $1', [oldFormula.id])).toHaveLength(0);
  });
});

describe('the real run', () => {
  it('records the run with its audit row and the outbox row that queues its job (202), and lists it with its progress', async () => {
    const res = await swap(manager, { fromProductId: oldFormula.id, toProductId: newFormula.id, dryRun: false, reason: 'New formula, same price' });
    expect(res.status).toBe(202);
    const run = bulkSwapStartedSchema.parse(await res.json());
    expect(run).toMatchObject({ status: 'queued', from: oldFormula.name, to: newFormula.name, reason: 'New formula, same price', total: null, done: 0, staffEmail: manager.email });
    const [outbox] = await q<{ payload: unknown }>(`select payload from outbox where topic = 'subscription.bulk-swap-requested' and payload->>'runId' = $1`, [run.id]);
    expect(outbox?.payload).toEqual({ runId: run.id });
    const audit = await q<{ action: string; actor_email: string; after: Record<string, unknown> }>(`select action, actor_email, after from audit_events where entity_type = 'bulk_swap' and entity_id = $1`, [run.id]);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'subscription.bulk_swap_started', actor_email: manager.email, after: { reason: 'New formula, same price' } });
    // No plan changes in the request: the job does them.
    expect((await q<{ items: LineItem[] }>('select items from subscriptions where id = $1', [plans.active]))[0]!.items[0]!.productId).toBe(oldFormula.id);

    const listed = bulkSwapRunsSchema.parse(await (await manager.request('/api/admin/subscriptions/bulk-swap/runs?limit=100')).json());
    expect(listed.runs.find((r) => r.id === run.id)).toMatchObject({ status: 'queued', from: oldFormula.name });
    const one = bulkSwapRunSchema.parse(await (await manager.request(`/api/admin/subscriptions/bulk-swap/runs/${run.id}`)).json());
    expect(one.id).toBe(run.id);
    expect((await manager.request(`/api/admin/subscriptions/bulk-swap/runs/${randomUUID()}`)).status).toBe(404);
    expect((await manager.request('/api/admin/subscriptions/bulk-swap/runs/not-a-uuid')).status).toBe(404);
  });
});
