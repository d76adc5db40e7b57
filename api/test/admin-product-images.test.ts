/**
 * Product picture uploads: checked by content (not by name or Content-Type), limited in bytes, pixels and
 * size, resized to the web widths as WebP in the file storage (the uploads folder, or the S3 bucket of
 * STORAGE_URL), served at /uploads with a day's caching and 304s, named by content.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES, UPLOADED_IMAGE_WIDTHS } from '@nh/shared/contracts/product-images';
import { startTestS3, type TestS3 } from '@nh/server/testing/s3-server';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let manager: StaffClient;
let uploads: string;

beforeAll(async () => {
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-uploads-'));
  api = await startTestApi({ UPLOADS_DIR: uploads });
  manager = await signInAs(api, 'manager');
});
afterAll(async () => {
  await api.close();
  fs.rmSync(uploads, { recursive: true, force: true });
});

const picture = (width: number, height: number, format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 80, g: 140, b: 90 } } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

const upload = (client: StaffClient, bytes: Buffer, contentType = 'image/png') =>
  fetch(`${api.url}/api/admin/products/images`, { method: 'POST', headers: { cookie: client.cookie, 'content-type': contentType }, body: bytes });

describe('product picture uploads', () => {
  it('stores each web width as WebP, named by content, served at /uploads', async () => {
    const bytes = await picture(1600, 1000, 'jpeg');
    const res = await upload(manager, bytes, 'image/jpeg');
    expect(res.status).toBe(201);
    const body = (await res.json()) as { image: string; width: number; height: number; urls: Record<string, string> };
    expect(body).toMatchObject({ image: expect.stringMatching(/^upl-[0-9a-f]{20}$/), width: 1600, height: 1000 });
    expect(Object.keys(body.urls)).toEqual(UPLOADED_IMAGE_WIDTHS.map(String));
    for (const width of UPLOADED_IMAGE_WIDTHS) {
      const served = await fetch(`${api.url}${body.urls[width]}`);
      expect(served.status).toBe(200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width });
    }
    const again = (await (await upload(manager, bytes, 'image/jpeg')).json()) as { image: string };
    expect(again.image).toBe(body.image);
  });

  it('never enlarges a small picture', async () => {
    const body = (await (await upload(manager, await picture(500, 400))).json()) as { urls: Record<string, string> };
    const largest = await sharp(Buffer.from(await (await fetch(`${api.url}${body.urls[1280]}`)).arrayBuffer())).metadata();
    expect(largest.width).toBe(500);
  });

  it('judges by content: a script named as a PNG is refused; too small, too large and empty too', async () => {
    const script = await upload(manager, Buffer.from('<script>alert(1)</script>'), 'image/png');
    expect(script.status).toBe(415);
    expect(await script.json()).toMatchObject({ message: UPLOAD_MESSAGES.notAnImage });
    const tiny = await upload(manager, await picture(100, 100));
    expect(tiny.status).toBe(400);
    expect(await tiny.json()).toMatchObject({ message: UPLOAD_MESSAGES.tooSmall });
    const big = await upload(manager, Buffer.alloc(9 * 1024 * 1024, 1), 'application/octet-stream');
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ message: UPLOAD_MESSAGES.tooLarge });
    const text = await upload(manager, Buffer.from('hello'), 'text/plain');
    expect(text.status).toBe(415);
    expect(fs.readdirSync(path.join(uploads, 'products')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('is for catalogue staff only', async () => {
    const support = await signInAs(api, 'support');
    expect((await upload(support, await picture(300, 300))).status).toBe(403);
    expect((await fetch(`${api.url}/api/admin/products/images`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: await picture(300, 300) })).status).toBe(401);
  });
});

/** A conditional GET as a browser sends it when its cached copy is stale: If-None-Match only. */
const revalidate = (url: string, etag: string) =>
  new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    http
      .get(url, { headers: { 'if-none-match': etag } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      })
      .on('error', reject);
  });

describe('serving uploaded pictures at /uploads', () => {
  let s3: TestS3;
  let s3Api: TestApi;
  beforeAll(async () => {
    s3 = await startTestS3();
    s3Api = await startTestApi(s3.env('product-images'));
  });
  afterAll(async () => {
    await s3Api?.close();
    await s3?.close();
  });

  const backends = () => [
    { name: 'local folder', api, folder: uploads },
    { name: 'S3 bucket', api: s3Api, folder: null },
  ];

  it('stores the widths in either backend and serves them back with the same URLs, caching headers and 304s', async () => {
    const bytes = await picture(900, 600, 'jpeg');
    for (const { name, api: target, folder } of backends()) {
      const staff = await signInAs(target, 'manager');
      const res = await fetch(`${target.url}/api/admin/products/images`, { method: 'POST', headers: { cookie: staff.cookie, 'content-type': 'image/jpeg' }, body: bytes });
      expect(res.status, name).toBe(201);
      const { image, urls } = (await res.json()) as { image: string; urls: Record<string, string> };
      expect(urls[640], name).toBe(`/uploads/products/${image}-640.webp`);
      if (folder) expect(fs.existsSync(path.join(folder, 'products', `${image}-640.webp`))).toBe(true);
      else expect(await target.services.files.uploads.stat(`products/${image}-640.webp`)).toMatchObject({ contentType: 'image/webp' });

      const served = await fetch(`${target.url}${urls[640]}`);
      expect(served.status, name).toBe(200);
      expect(served.headers.get('content-type'), name).toBe('image/webp');
      expect(served.headers.get('cache-control'), name).toBe('public, max-age=86400');
      const body = Buffer.from(await served.arrayBuffer());
      expect(served.headers.get('content-length'), name).toBe(String(body.length));
      expect((await sharp(body).metadata()).width, name).toBe(640);
      const etag = served.headers.get('etag')!;
      expect(etag, name).toBeTruthy();
      expect(served.headers.get('last-modified'), name).toBeTruthy();
      // A browser revalidating its copy (fetch would add Cache-Control: no-cache, which forbids a 304).
      const again = await revalidate(`${target.url}${urls[640]}`, etag);
      expect(again, name).toEqual({ status: 304, bytes: 0 });
      const head = await fetch(`${target.url}${urls[320]}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type')], name).toEqual([200, 'image/webp']);
    }
  });

  it('answers 404 for a picture that is not there or an address that is not a key, and 405 for a write', async () => {
    for (const { name, api: target } of backends()) {
      for (const bad of ['/uploads/products/upl-0000-640.webp', '/uploads/products/..%2f..%2fpackage.json', '/uploads/Products/X.webp', '/uploads/']) {
        const res = await fetch(`${target.url}${bad}`);
        expect(res.status, `${name} ${bad}`).toBe(404);
      }
      expect((await fetch(`${target.url}/uploads/products/x.webp`, { method: 'DELETE' })).status, name).toBe(405);
    }
  });
});
