/**
 * Claim photos (issue 23; docs/decisions/claims.md, "Photos"): uploaded for an order by its shopper (or
 * staff), checked by content (JPEG, PNG or WebP), size-limited, re-encoded as JPEG without the camera's
 * metadata, kept in the private claims store; a claim names it; only staff who resolve claims read it
 * back (GET /api/admin/claims/{id}/photo). No public URL serves it, in the local folders or the bucket.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_PHOTO_MESSAGES } from '@nh/shared/contracts/claims';
import { startTestS3, type TestS3 } from '@nh/server/testing/s3-server';
import { placeClaimableOrder, rowsOf } from './support/claims';
import { startTestApi, type TestApi } from './support/harness';
import { json, signUpShopper, type Shopper } from './support/shopper';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let support: StaffClient;
let fulfilment: StaffClient;
let folders: { uploads: string; claims: string };

beforeAll(async () => {
  folders = { uploads: fs.mkdtempSync(path.join(os.tmpdir(), 'nh-uploads-')), claims: fs.mkdtempSync(path.join(os.tmpdir(), 'nh-claim-photos-')) };
  api = await startTestApi({ UPLOADS_DIR: folders.uploads, CLAIM_PHOTOS_DIR: folders.claims });
  support = await signInAs(api, 'support');
  fulfilment = await signInAs(api, 'fulfilment');
});
afterAll(async () => {
  await api.close();
  for (const folder of Object.values(folders)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A photo as a phone sends it: a JPEG with EXIF (the camera, and where it was taken). */
const phonePhoto = (width = 1200, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Snap 9', Copyright: 'Ada Lovelace' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
    .toBuffer();

/** The photo's bytes as the body, with the caller's cookie (shopper or staff), to an upload route. */
const upload = (target: TestApi, url: string, cookie: string | null, bytes: Buffer, contentType = 'image/jpeg') =>
  fetch(target.url + url, { method: 'POST', headers: { ...(cookie ? { cookie } : {}), 'content-type': contentType }, body: bytes });

const report = (shopper: Shopper, orderId: string, extra: Record<string, unknown> = {}) =>
  shopper.call(`/api/orders/${orderId}/claims`, { body: { lines: [{ line: 0, quantity: 1 }], reason: 'arrived_damaged', note: 'Cracked lid', ...extra }, headers: { 'idempotency-key': randomUUID() } });

describe('a shopper’s photo', () => {
  it('is uploaded for their order, re-encoded without metadata, attached to the claim, and read back by staff only', async () => {
    const shopper = await signUpShopper(api, 'claim-photo');
    const { orderId } = await placeClaimableOrder(api, shopper);
    const sent = await phonePhoto();
    expect((await sharp(sent).metadata()).exif).toBeDefined();

    const uploaded = await json(await upload(api, `/api/orders/${orderId}/claims/photos`, shopper.cookie, sent), 201);
    expect(uploaded).toEqual({ photo: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const claim = await json(await report(shopper, orderId, { photo: uploaded.photo }), 201);
    const [row] = await rowsOf(api)<{ photo_key: string }>('select photo_key from claims where id = $1', [claim.id]);
    expect(row!.photo_key).toBe(`${orderId}/${uploaded.photo as string}.jpg`);

    // Staff see that there is a photo, and read it: a JPEG, no EXIF, no GPS, not kept by the browser.
    expect(await json(await support.request(`/api/admin/claims/${claim.id as string}`), 200)).toMatchObject({ hasPhoto: true });
    const read = await support.request(`/api/admin/claims/${claim.id as string}/photo`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('image/jpeg');
    expect(read.headers.get('cache-control')).toBe('no-store');
    const meta = await sharp(Buffer.from(await read.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1200, height: 900 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();

    // Nobody else: the shopper themself, anyone signed out, a role that does not resolve claims.
    const photoUrl = `/api/admin/claims/${claim.id as string}/photo`;
    expect((await shopper.call(photoUrl)).status).toBe(401);
    expect((await api.request(photoUrl)).status).toBe(401);
    expect((await fulfilment.request(photoUrl)).status).toBe(403);
    // No public address: not under /uploads (another store), whatever the path is guessed to be.
    for (const guess of [`/uploads/${row!.photo_key}`, `/uploads/claims/${row!.photo_key}`]) {
      expect((await fetch(api.url + guess)).status, guess).toBe(404);
    }
    expect(fs.existsSync(path.join(folders.claims, row!.photo_key))).toBe(true);
    expect(fs.readdirSync(folders.uploads)).toEqual([]);
  });

  it('refuses a file that is no JPEG, PNG or WebP, or too large, in words; the claim is made without a photo when none is sent', async () => {
    const shopper = await signUpShopper(api, 'claim-photo-bad');
    const { orderId } = await placeClaimableOrder(api, shopper);
    const url = `/api/orders/${orderId}/claims/photos`;
    const pdf = await upload(api, url, shopper.cookie, Buffer.from('%PDF-1.4 not a photo'), 'application/pdf');
    expect(await json(pdf, 415)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: CLAIM_PHOTO_MESSAGES.notAPhoto });
    const script = await upload(api, url, shopper.cookie, Buffer.from('<script>alert(1)</script>'), 'image/png');
    expect(await json(script, 415)).toMatchObject({ message: CLAIM_PHOTO_MESSAGES.notAPhoto });
    const gif = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } }).gif().toBuffer();
    expect(await json(await upload(api, url, shopper.cookie, gif, 'image/jpeg'), 415)).toMatchObject({ message: CLAIM_PHOTO_MESSAGES.notAPhoto });
    const big = await upload(api, url, shopper.cookie, Buffer.alloc(9 * 1024 * 1024, 1), 'image/jpeg');
    expect(await json(big, 413)).toMatchObject({ code: 'BODY_TOO_LARGE', message: CLAIM_PHOTO_MESSAGES.tooLarge });
    expect(await json(await upload(api, url, shopper.cookie, Buffer.alloc(0), 'image/jpeg'), 400)).toMatchObject({ message: CLAIM_PHOTO_MESSAGES.empty });
    // A PNG and a WebP are fine (stored as JPEG).
    for (const bytes of [await sharp(await phonePhoto(300, 200)).png().toBuffer(), await sharp(await phonePhoto(300, 200)).webp().toBuffer()]) {
      await json(await upload(api, url, shopper.cookie, bytes, 'application/octet-stream'), 201);
    }
    expect(fs.readdirSync(path.join(folders.claims, orderId))).toHaveLength(2);
    expect(await json(await report(shopper, orderId), 201)).toMatchObject({ status: 'awaiting_review' });
  });

  it('is only for the shopper’s own order, and a claim names only a photo of its own order', async () => {
    const shopper = await signUpShopper(api, 'claim-photo-own');
    const stranger = await signUpShopper(api, 'claim-photo-stranger');
    const mine = await placeClaimableOrder(api, shopper);
    const theirs = await placeClaimableOrder(api, stranger);
    const bytes = await phonePhoto(400, 300);
    expect(await json(await upload(api, `/api/orders/${theirs.orderId}/claims/photos`, shopper.cookie, bytes), 404)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await json(await upload(api, `/api/orders/${mine.orderId}/claims/photos`, null, bytes), 401)).toMatchObject({ code: 'NOT_SIGNED_IN' });
    expect(await json(await upload(api, `/api/orders/guest/${mine.orderId}/claims/photos`, null, bytes), 403)).toMatchObject({ code: 'GUEST_ORDER_ACCESS_ENDED' });

    // The stranger's photo, uploaded for their order, cannot be named by a claim on another order.
    const { photo } = await json(await upload(api, `/api/orders/${theirs.orderId}/claims/photos`, stranger.cookie, bytes), 201);
    expect(await json(await report(shopper, mine.orderId, { photo }), 422)).toMatchObject({ code: 'CLAIM_PHOTO_MISSING', message: CLAIM_PHOTO_MESSAGES.missing });
    expect(await json(await report(shopper, mine.orderId, { photo: '../../etc/passwd' }), 400)).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await rowsOf(api)('select id from claims where order_id = $1', [mine.orderId])).toEqual([]);
  });
});

describe('staff’s photo', () => {
  it('is uploaded in the claim dialog for the order and shown in the queue; roles that do not resolve claims cannot upload', async () => {
    const { orderId } = await placeClaimableOrder(api, null);
    const bytes = await phonePhoto(2600, 1300);
    const url = `/api/admin/orders/${orderId}/claims/photos`;
    expect((await upload(api, url, fulfilment.cookie, bytes)).status).toBe(403);
    expect((await upload(api, url, null, bytes)).status).toBe(401);
    expect((await upload(api, `/api/admin/orders/${randomUUID()}/claims/photos`, support.cookie, bytes)).status).toBe(404);
    const { photo } = await json(await upload(api, url, support.cookie, bytes), 201);
    const made = await json(
      await support.request(`/api/admin/orders/${orderId}/claims`, {
        method: 'POST',
        body: { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', resolution: 'replace', note: 'Customer emailed a photo', photo },
        headers: { 'idempotency-key': randomUUID() },
      }),
      201,
    );
    expect(made).toMatchObject({ hasPhoto: true, status: 'resolved' });
    const queue = (await json(await support.request('/api/admin/claims?status=resolved'), 200)) as unknown as Array<{ id: string; hasPhoto: boolean }>;
    expect(queue.find((c) => c.id === made.id)).toMatchObject({ hasPhoto: true });
    // The long side at most 2000 pixels.
    const read = await support.request(`/api/admin/claims/${made.id as string}/photo`);
    expect(await sharp(Buffer.from(await read.arrayBuffer())).metadata()).toMatchObject({ width: 2000, height: 1000 });
    // A claim without a photo: the photo route says so.
    const other = await placeClaimableOrder(api, null);
    const plain = await json(
      await support.request(`/api/admin/orders/${other.orderId}/claims`, { method: 'POST', body: { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', resolution: 'replace' }, headers: { 'idempotency-key': randomUUID() } }),
      201,
    );
    expect(await json(await support.request(`/api/admin/claims/${plain.id as string}/photo`), 404)).toMatchObject({ message: CLAIM_PHOTO_MESSAGES.none });
  });
});

describe('in an S3 bucket', () => {
  let s3: TestS3;
  let s3Api: TestApi;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Api = await startTestApi(s3.env('claim-photos'));
  });
  afterAll(async () => {
    await s3Api?.close();
    await s3?.close();
  });

  it('lives under the claims prefix, read by staff through the API, never through /uploads', async () => {
    const staff = await signInAs(s3Api, 'manager');
    const { orderId } = await placeClaimableOrder(s3Api, null);
    const { photo } = await json(await upload(s3Api, `/api/admin/orders/${orderId}/claims/photos`, staff.cookie, await phonePhoto(300, 300)), 201);
    const key = `${orderId}/${photo as string}.jpg`;
    expect(await s3Api.services.files.claims.stat(key)).toMatchObject({ contentType: 'image/jpeg' });
    expect(await s3Api.services.files.uploads.stat(key)).toBeNull();
    const made = await json(
      await staff.request(`/api/admin/orders/${orderId}/claims`, { method: 'POST', body: { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', resolution: 'replace', photo }, headers: { 'idempotency-key': randomUUID() } }),
      201,
    );
    expect((await staff.request(`/api/admin/claims/${made.id as string}/photo`)).status).toBe(200);
    for (const guess of [`/uploads/${key}`, `/uploads/claims/${key}`]) expect((await fetch(s3Api.url + guess)).status, guess).toBe(404);
  });
});
