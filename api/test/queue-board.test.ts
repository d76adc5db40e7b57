/** The queue dashboard at /admin/queues: signed-in owners and managers only, every queue listed, changes audited. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueActionOf } from '../src/modules/admin/queues/board';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;

beforeAll(async () => {
  api = await startTestApi({ QUEUE_PREFIX: `qb-${randomUUID().slice(0, 8)}` });
  manager = await signInAs(api, 'manager');
});
afterAll(() => api.close());

describe('the queue dashboard', () => {
  it('sends a signed-out visitor to the sign-in, refuses support, and opens for a manager', async () => {
    const out = await fetch(`${api.url}/admin/queues`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/admin');
    const support = await signInAs(api, 'support');
    expect((await support.request('/admin/queues', { headers: { accept: 'text/html' } })).status).toBe(403);
    const page = await manager.request('/admin/queues', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Nurture Home queues');
  });

  it("lists every queue through the board's API", async () => {
    const res = await manager.request('/admin/queues/api/queues');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { queues: Array<{ name: string }> };
    expect(body.queues.map((q) => q.name).sort()).toEqual(['emails', 'erp-sync', 'exports', 'maintenance', 'renewals']);
  });

  it('audits a change made on the board, once it succeeded', async () => {
    const res = await manager.request('/admin/queues/api/queues/emails/retry/failed', { method: 'PUT' });
    expect(res.status).toBe(200);
    const owner = await signInAs(api, 'owner');
    let entries: Array<{ action: string; entityId: string; after: unknown; actorEmail: string }> = [];
    for (let i = 0; i < 20 && entries.length === 0; i++) {
      entries = ((await (await owner.request('/api/admin/audit?entityType=queue&entityId=emails')).json()) as { entries: typeof entries }).entries;
      if (!entries.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(entries[0]).toMatchObject({ action: 'queue.changed', entityId: 'emails', after: { operation: 'retry failed' }, actorEmail: manager.email });
  });

  it('refuses a change posted from another site', async () => {
    const res = await manager.request('/admin/queues/api/queues/emails/retry/failed', { method: 'PUT', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });

  it('names what each board call changed', () => {
    expect(queueActionOf('GET', '/api/queues')).toBeNull();
    expect(queueActionOf('PUT', '/api/queues/emails/retry/failed')).toEqual({ entityId: 'emails', operation: 'retry failed' });
    expect(queueActionOf('PUT', '/api/queues/erp-sync/abc123/promote')).toEqual({ entityId: 'erp-sync/abc123', operation: 'promote' });
    expect(queueActionOf('PUT', '/api/queues/exports/clean/completed')).toEqual({ entityId: 'exports', operation: 'clean completed' });
    expect(queueActionOf('PUT', '/api/queues/pause')).toEqual({ entityId: 'all queues', operation: 'pause' });
    expect(queueActionOf('PATCH', '/api/queues/emails/7/update-data')).toEqual({ entityId: 'emails/7', operation: 'update-data' });
  });
});
