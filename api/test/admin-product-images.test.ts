/**
 * Product picture uploads: checked by content (not by name or Content-Type), limited in bytes, pixels and
 * size, resized to the web widths as WebP under the uploads folder, served at /uploads, named by content.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES, UPLOADED_IMAGE_WIDTHS } from '@nh/shared/contracts/product-images';
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
