/**
 * Staff send a store-credit movement whose NetSuite sync failed to NetSuite again (issue 23):
 * POST /api/admin/sync/store-credit/failed lists them, POST /api/admin/sync/store-credit/{entryId}/retry
 * sets the sync back to pending with a `store-credit.recorded` outbox row (the sync job's trigger) in one
 * transaction, audited on the customer; a synced movement, a spend and an unknown id are refused.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditSyncRetrySchema, failedCreditSyncListSchema } from '@nh/shared/contracts/admin-sync';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let support: StaffClient;
let shopper: Shopper;
let entryId: string;

const q = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await api.ctx.db.$client.query<T>(text, values)).rows;
const outboxRows = (id: string) => q("select id from outbox where topic = 'store-credit.recorded' and payload->>'entryId' = $1", [id]);
const retry = (who: StaffClient, id: string) => who.request(`/api/admin/sync/store-credit/${id}/retry`, { method: 'POST', body: {} });

beforeAll(async () => {
  api = await startTestApi();
  [manager, support] = await Promise.all([signInAs(api, 'manager'), signInAs(api, 'support')]);
  shopper = await signUpShopper(api, 'credit-sync-retry');
  await json(await manager.request(`/api/admin/customers/${shopper.id}/credit`, { method: 'POST', body: { amount: '12.50', reason: 'Cap split' }, headers: { 'idempotency-key': randomUUID() } }), 201);
  const [entry] = await q<{ id: string }>("select id::text as id from store_credit_entries where user_id = $1 and kind = 'grant'", [shopper.id]);
  entryId = entry!.id;
  // The sync job's last attempt failed (what it records: status failed with NetSuite's error).
  await q("insert into store_credit_netsuite_syncs (entry_id, status, error, attempts) values ($1::bigint, 'failed', 'INVALID_KEY_OR_REF: item NH-STORE-CREDIT-GOODWILL', 5)", [entryId]);
});
afterAll(() => api.close());

describe('store-credit NetSuite sync retry', () => {
  it('lists the failed movement with its customer and error; support may not see or retry it', async () => {
    const { failed } = failedCreditSyncListSchema.parse(await json(await manager.request('/api/admin/sync/store-credit/failed', { method: 'POST', body: {} }), 200));
    expect(failed.find((f) => f.entryId === entryId)).toMatchObject({
      kind: 'grant',
      amount: '12.50',
      customerId: shopper.id,
      customerEmail: shopper.email,
      errorMessage: 'INVALID_KEY_OR_REF: item NH-STORE-CREDIT-GOODWILL',
      attempts: 5,
    });
    expect((await support.request('/api/admin/sync/store-credit/failed', { method: 'POST', body: {} })).status).toBe(403);
    expect((await retry(support, entryId)).status).toBe(403);
    expect(await q('select status from store_credit_netsuite_syncs where entry_id = $1::bigint', [entryId])).toEqual([{ status: 'failed' }]);
  });

  it('a manager retries: pending, one new outbox row for the sync job, audited on the customer; gone from the failed list', async () => {
    const before = (await outboxRows(entryId)).length;
    expect(creditSyncRetrySchema.parse(await json(await retry(manager, entryId), 202))).toEqual({ entryId, status: 'pending' });
    expect(await q('select status, error, attempts from store_credit_netsuite_syncs where entry_id = $1::bigint', [entryId])).toEqual([{ status: 'pending', error: null, attempts: 5 }]);
    expect(await outboxRows(entryId)).toHaveLength(before + 1);
    const audit = await q("select actor_email, entity_type, before, after from audit_events where action = 'sync.store_credit_replayed' and entity_id = $1", [shopper.id]);
    expect(audit).toEqual([{ actor_email: manager.email, entity_type: 'customer', before: { entry: entryId, netsuiteSyncStatus: 'failed' }, after: { entry: entryId, netsuiteSyncStatus: 'pending' } }]);
    const { failed } = failedCreditSyncListSchema.parse(await json(await manager.request('/api/admin/sync/store-credit/failed', { method: 'POST', body: {} }), 200));
    expect(failed.map((f) => f.entryId)).not.toContain(entryId);
  });

  it('refuses a synced movement (409), a spend (travels with its order, 409) and an unknown id (404), writing nothing', async () => {
    await q("update store_credit_netsuite_syncs set status = 'synced' where entry_id = $1::bigint", [entryId]);
    const outboxBefore = (await outboxRows(entryId)).length;
    const synced = await json(await retry(manager, entryId), 409);
    expect(JSON.stringify(synced)).toContain('already in NetSuite');
    expect(await outboxRows(entryId)).toHaveLength(outboxBefore);
    expect(await q('select status from store_credit_netsuite_syncs where entry_id = $1::bigint', [entryId])).toEqual([{ status: 'synced' }]);

    const [spend] = await q<{ id: string }>(
      "insert into store_credit_entries (user_id, kind, amount_cents, balance_after_cents, reference) values ($1, 'spend', -100, 1150, $2) returning id::text as id",
      [shopper.id, `test-spend-${randomUUID()}`],
    );
    const refused = await json(await retry(manager, spend!.id), 409);
    expect(JSON.stringify(refused)).toContain('travels to NetSuite with its order');
    expect(await q('select 1 from store_credit_netsuite_syncs where entry_id = $1::bigint', [spend!.id])).toEqual([]);

    await json(await retry(manager, '999999999'), 404);
    await json(await retry(manager, 'not-a-number'), 404);
    expect(await q("select 1 from audit_events where action = 'sync.store_credit_replayed' and entity_id = $1", [shopper.id])).toHaveLength(1);
  });
});
