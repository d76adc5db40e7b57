/**
 * Starting the subscriptions CSV export (issue 21) through the admin API: the export's row (of its own
 * kind), the outbox row that queues the exports worker, the audit row; the status filter checked; for
 * managers and owners only (exports.run). The file itself: workers/test/subscription-export.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportStartedSchema } from '@nh/shared/contracts/exports';
import { SUBSCRIPTION_EXPORT_MESSAGES, subscriptionExportStatusSchema } from '@nh/shared/contracts/subscription-export';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => api.ctx.db.$client.query<T>(text, values).then((r) => r.rows);
const start = (client: StaffClient, body: Record<string, unknown> = {}) => client.request('/api/admin/subscriptions/export', { method: 'POST', body: { storeCode: 'NH', ...body } });

beforeAll(async () => {
  api = await startTestApi();
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

describe('POST /api/admin/subscriptions/export', () => {
  it('queues the export (202) with its row, outbox row and audit row, and reports its status', async () => {
    const res = await start(manager, { status: 'active' });
    expect(res.status).toBe(202);
    const { exportId, status } = exportStartedSchema.parse(await res.json());
    expect(status).toBe('queued');
    expect(await q('select kind, staff_email, filters from exports where id = $1', [exportId])).toEqual([{ kind: 'subscriptions', staff_email: manager.email, filters: { status: 'active' } }]);
    expect(await q(`select payload from outbox where topic = 'export.subscriptions-requested' and payload->>'exportId' = $1`, [exportId])).toEqual([{ payload: { exportId } }]);
    expect(await q(`select action, actor_email, after from audit_events where entity_type = 'export' and entity_id = $1`, [exportId])).toEqual([
      { action: 'export.started', actor_email: manager.email, after: { storeCode: 'NH', kind: 'subscriptions', filters: { status: 'active' } } },
    ]);
    const current = subscriptionExportStatusSchema.parse(await (await manager.request(`/api/admin/subscriptions/export/${exportId}/status`, { method: 'POST', body: { storeCode: 'NH' } })).json());
    expect(current).toMatchObject({ exportId, status: 'queued', staffEmail: manager.email, filters: { status: 'active' }, downloadable: false });
    // Not ready: the download says so.
    expect((await manager.request(`/api/admin/subscriptions/export/${exportId}/download`, { method: 'POST', body: { storeCode: 'NH' } })).status).toBe(409);
  });

  it('answers 400 with a message for an unknown status, and writes nothing', async () => {
    const before = (await q<{ n: number }>(`select count(*)::int as n from exports where kind = 'subscriptions'`))[0]!.n;
    const res = await start(manager, { status: 'sleeping' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(SUBSCRIPTION_EXPORT_MESSAGES.status);
    expect((await q<{ n: number }>(`select count(*)::int as n from exports where kind = 'subscriptions'`))[0]!.n).toBe(before);
  });

  it('is for managers and owners: support and fulfilment get 403', async () => {
    for (const role of ['support', 'fulfilment'] as const) {
      const client = await signInAs(api, role);
      const res = await start(client);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('STAFF_FORBIDDEN');
      expect((await client.request('/api/admin/subscriptions/export/history', { method: 'POST', body: { storeCode: 'NH' } })).status).toBe(403);
    }
  });
});
