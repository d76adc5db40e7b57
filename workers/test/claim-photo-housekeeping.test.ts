/**
 * Housekeeping deletes claims' photos no claim names a day after their upload (issue 23; the photo is
 * uploaded first, then named by the claim): real uploads through the API into a temp folder, real
 * files aged with their modification time, the real claims table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { localFileStorage } from '@nh/server/storage';
import { placeClaimableOrder, rowsOf } from '../../api/test/support/claims';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { json, signUpShopper } from '../../api/test/support/shopper';
import { signInAs, type StaffClient } from '../../api/test/support/staff';
import { createHousekeepingProcessor } from '../src/maintenance/housekeeping';

let api: TestApi;
let support: StaffClient;
let folder: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-claim-photos-hk-'));
  api = await startTestApi({ CLAIM_PHOTOS_DIR: folder });
  support = await signInAs(api, 'support');
});
afterAll(async () => {
  await api.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

const photo = () => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 90, b: 200 } } }).jpeg().toBuffer();
const uploadFor = async (orderId: string, cookie: string): Promise<string> => {
  const res = await fetch(`${api.url}/api/orders/${orderId}/claims/photos`, { method: 'POST', headers: { cookie, 'content-type': 'image/jpeg' }, body: await photo() });
  return (await json(res, 201)).photo as string;
};
const fileOf = (orderId: string, name: string) => path.join(folder, orderId, `${name}.jpg`);
/** The file as if written `hours` ago. */
const age = (file: string, hours: number) => {
  const then = new Date(Date.now() - hours * 3_600_000);
  fs.utimesSync(file, then, then);
};

describe('housekeeping of claim photos', () => {
  it('deletes photos older than a day that no claim names; keeps a claim’s photo and a fresh upload', async () => {
    const shopper = await signUpShopper(api, 'photo-hk');
    const { orderId } = await placeClaimableOrder(api, shopper);
    const attached = await uploadFor(orderId, shopper.cookie);
    const abandoned = await uploadFor(orderId, shopper.cookie);
    const fresh = await uploadFor(orderId, shopper.cookie);
    const claim = await json(
      await shopper.call(`/api/orders/${orderId}/claims`, { body: { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', photo: attached }, headers: { 'idempotency-key': randomUUID() } }),
      201,
    );
    age(fileOf(orderId, attached), 48);
    age(fileOf(orderId, abandoned), 25);
    age(fileOf(orderId, fresh), 23);
    // A half-written file a crash left is not a photo (never listed, never deleted here).
    fs.writeFileSync(`${fileOf(orderId, abandoned)}.123-abcd.partial`, 'x');

    const housekeeping = createHousekeepingProcessor({
      db: api.ctx.db,
      log: createLogger('hk-claim-photos', 'silent'),
      retentionDays: 7,
      ledgerRetentionDays: 90,
      exportFiles: localFileStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'nh-exports-hk-'))),
      claimPhotos: localFileStorage(folder),
    });
    const result = await housekeeping({ id: 'hk-claim-photos' } as Job);
    expect(result.claimPhotosDeleted).toBe(1);
    expect(fs.existsSync(fileOf(orderId, abandoned))).toBe(false);
    expect(fs.existsSync(fileOf(orderId, attached))).toBe(true);
    expect(fs.existsSync(fileOf(orderId, fresh))).toBe(true);
    // The claim's photo still reads back for staff.
    const [row] = await rowsOf(api)<{ photo_key: string }>('select photo_key from claims where id = $1', [claim.id]);
    expect(row!.photo_key).toBe(`${orderId}/${attached}.jpg`);
    expect((await support.request(`/api/admin/claims/${claim.id as string}/photo`)).status).toBe(200);

    // A day later the fresh upload, never named, goes too; the claim's photo stays.
    age(fileOf(orderId, fresh), 30);
    expect((await housekeeping({ id: 'hk-claim-photos-2' } as Job)).claimPhotosDeleted).toBe(1);
    expect(fs.readdirSync(path.join(folder, orderId)).sort()).toEqual([`${abandoned}.jpg.123-abcd.partial`, `${attached}.jpg`].sort());
  });
});
