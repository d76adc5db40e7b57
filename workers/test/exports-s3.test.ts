/**
 * Exports with the files in an S3 bucket (STORAGE_URL; a local S3-protocol server, MinIO when installed,
 * s3rver otherwise): the worker streams the CSV into the bucket, the API (another process in production)
 * answers the download with a signed URL of the object, housekeeping deletes the expired object, and a
 * store that refuses the write fails the export in words staff can act on.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Job } from 'bullmq';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { createFileStores } from '@nh/server/storage';
import { startTestS3, type TestS3 } from '@nh/server/testing/s3-server';
import { exportStartedSchema, exportStatusSchema } from '@nh/shared/contracts/exports';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';
import { parseCsv } from '@nh/server/testing/csv';
import { createTestDatabase, placeOrder, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerRuntime } from '../src/runtime';
import type { WorkerConfig } from '../src/lib/config';

const STORE = 'S3EXPORT';
let s3: TestS3;
let tdb: TestDatabase;
let config: WorkerConfig;
let runtime: WorkerRuntime;
let api: TestApi;
let staff: StaffClient;

const post = (p: string, body: Record<string, unknown> = {}) => staff.request(p, { method: 'POST', body: { storeCode: STORE, ...body } });
const finished = (exportId: string) =>
  waitFor(
    async () => {
      const s = exportStatusSchema.parse(await (await post(`/api/admin/orders/export/${exportId}/status`)).json());
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    15_000,
    `export ${exportId}`,
  );
const startExport = async () => exportStartedSchema.parse(await (await post('/api/admin/orders/export')).json()).exportId;
const downloadLink = (exportId: string) => `${api.url}/api/admin/orders/export/${exportId}/download?storeCode=${STORE}`;

beforeAll(async () => {
  s3 = await startTestS3();
  tdb = await createTestDatabase('exports3');
  // Worker and API: the same bucket and prefix, nothing shared on disk.
  config = testWorkerConfig(tdb.url, 'exports3', { WORKER_QUEUES: 'exports', ...s3.env('shop') });
  runtime = await startTestWorkers(config);
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, ...s3.env('shop') });
  staff = await signInAs(api, 'manager');
  await placeOrder(tdb.db, { storeCode: STORE, customerName: 'Ada Bucket', outbox: false });
  await placeOrder(tdb.db, { storeCode: STORE, customerName: 'Ben Object', outbox: false });
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(1000);
  await tdb?.drop();
  await s3?.close();
});

describe('CSV exports in an S3 bucket', () => {
  it('the worker writes the file into the bucket and the API hands it out by a signed URL', async () => {
    const exportId = await startExport();
    const done = await finished(exportId);
    expect(done).toMatchObject({ status: 'completed', rowsDone: 2, rowsTotal: 2, downloadable: true });
    const [row] = await tdb.db.select().from(tables.exports).where(eq(tables.exports.id, exportId));
    expect(row!.filePath).toBe(`${exportId}.csv`);
    expect(fs.existsSync(config.EXPORTS_DIR)).toBe(false);
    expect(await api.services.files.exports.stat(`${exportId}.csv`)).toMatchObject({
      size: done.sizeBytes,
      contentType: 'text/csv; charset=utf-8',
    });

    const res = await fetch(downloadLink(exportId), { headers: { cookie: staff.cookie }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const signed = new URL(res.headers.get('location')!);
    expect(signed.pathname).toBe(`/${s3.bucket}/shop/exports/${exportId}.csv`);
    const file = await fetch(signed);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${done.fileName}"`);
    const body = await file.text();
    expect(Buffer.byteLength(body)).toBe(done.sizeBytes);
    const rows = parseCsv(body);
    expect(rows[0]![0]).toBe('Order ID');
    expect(
      rows
        .slice(1)
        .map((r) => r[2])
        .sort(),
    ).toEqual(['Ada Bucket', 'Ben Object']);
    if (s3.engine === 's3rver') expect(s3.seen.refused).toBe(0);
  });

  it('housekeeping deletes the object of an expired export; its download answers 410', async () => {
    const expired = await startExport();
    const kept = await startExport();
    await finished(expired);
    await finished(kept);
    await tdb.db
      .update(tables.exports)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(tables.exports.id, expired));
    const { exports: exportFiles } = createFileStores(config, { exports: config.EXPORTS_DIR });
    const housekeeping = createHousekeepingProcessor({
      db: tdb.db,
      log: createLogger('hk-test', 'silent'),
      retentionDays: 7,
      ledgerRetentionDays: 90,
      exportFiles,
    });
    expect((await housekeeping({ id: 'hk-s3' } as Job)).exportFilesDeleted).toBe(1);
    expect(await exportFiles.stat(`${expired}.csv`)).toBeNull();
    expect(await exportFiles.stat(`${kept}.csv`)).not.toBeNull();
    const [row] = await tdb.db.select().from(tables.exports).where(eq(tables.exports.id, expired));
    expect(row!.fileDeletedAt).not.toBeNull();
    expect((await fetch(downloadLink(expired), { headers: { cookie: staff.cookie }, redirect: 'manual' })).status).toBe(410);
    expect((await fetch(downloadLink(kept), { headers: { cookie: staff.cookie }, redirect: 'manual' })).status).toBe(302);
  });

  it('a bucket that refuses the write fails the export with words staff can act on, and leaves no file', async () => {
    await runtime.close(1000);
    runtime = await startTestWorkers({ ...config, STORAGE_URL: 's3://no-such-bucket/shop' });
    const exportId = await startExport();
    const failed = await finished(exportId);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^The export file could not be written \(NoSuchBucket\)\. Please try again/);
    expect((await post(`/api/admin/orders/export/${exportId}/download`)).status).toBe(409);
    expect(await api.services.files.exports.stat(`${exportId}.csv`)).toBeNull();
  });
});
