/**
 * Exports read DATABASE_READ_URL's replica (issue 24; docs/decisions/scale-out.md "Reads from a
 * replica"), once it has replayed what the primary had written when the job started: an order placed
 * just before the export is in the file although the replica (a real hot standby whose replay runs
 * 1.5 s behind, migrations/src/testing/replica.ts) did not have it when the export was asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { startReplica, type Replica } from '@nh/server/testing/replica';
import { parseCsv } from '@nh/server/testing/csv';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import { captureLog } from '../../api/test/support/log-capture';
import { createTestDatabase, placeOrder, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';

let tdb: TestDatabase;
let replica: Replica;
let api: TestApi;
let runtime: WorkerRuntime;
let staff: StaffClient;
const { lines, log } = captureLog();

beforeAll(async () => {
  tdb = await createTestDatabase('export_replica');
  replica = await startReplica(tdb.url, { applyDelayMs: 1500 });
  const config = testWorkerConfig(tdb.url, 'export-replica', { WORKER_QUEUES: 'exports', DATABASE_READ_URL: replica.urlFor(tdb.url), LOG_LEVEL: 'info' });
  runtime = await startTestWorkers(config, log);
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, EXPORTS_DIR: config.EXPORTS_DIR });
  staff = await signInAs(api, 'manager');
}, 60_000);
afterAll(async () => {
  await api?.close();
  await runtime?.close(1000);
  await replica?.stop();
  await tdb?.drop();
});

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: 'NH', ...body } });

/** Starts an export through the API and waits for the worker to finish it. */
async function exportOrders() {
  const started = await post('/api/admin/orders/export');
  expect(started.status).toBe(202);
  const { exportId } = exportStartedSchema.parse(await started.json());
  const done = await waitFor(
    async () => {
      const s = exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`)).json());
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    15_000,
    'export',
  );
  return { exportId, done };
}

const fallbackWarnings = () => lines.filter((l) => String(l.msg).includes('the export reads the primary'));

describe('exports from a read replica', () => {
  it('wait for the replica to replay what was written before the request, then read it', async () => {
    const orderId = await placeOrder(tdb.db, { customerName: 'Just Before' });
    const onReplica = new pg.Client({ connectionString: replica.urlFor(tdb.url) });
    await onReplica.connect();
    try {
      expect((await onReplica.query('select 1 from orders where id = $1', [orderId])).rowCount).toBe(0);
    } finally {
      await onReplica.end();
    }

    const { exportId, done } = await exportOrders();
    expect(done).toMatchObject({ status: 'completed', error: null });
    const rows = parseCsv(await (await post(`/api/admin/orders/export/${exportId}/download`)).text());
    expect(rows[0]![0]).toBe('Order ID');
    expect(rows.slice(1).map((r) => r[0])).toContain(orderId);
    // Read from the replica: it caught up, so the export did not fall back to the primary.
    expect(fallbackWarnings()).toEqual([]);
    expect(runtime.config.DATABASE_READ_URL).toBe(replica.urlFor(tdb.url));
  });

  it('with the replica down, an export reads the primary and says so', async () => {
    const orderId = await placeOrder(tdb.db, { customerName: 'Replica Down' });
    await replica.stop();
    const { exportId, done } = await exportOrders();
    expect(done).toMatchObject({ status: 'completed', error: null });
    const rows = parseCsv(await (await post(`/api/admin/orders/export/${exportId}/download`)).text());
    expect(rows.slice(1).map((r) => r[0])).toContain(orderId);
    expect(fallbackWarnings()).toHaveLength(1);
  });
});
