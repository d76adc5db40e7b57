/**
 * The storage contract: the same cases against the local folders and against the S3 backend (a local
 * S3-protocol server: MinIO when installed, s3rver otherwise), plus the configuration rule.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadEnv } from '../runtime/env';
import { startTestS3, type TestS3 } from '../testing/s3-server';
import { createFileStores, s3SettingsOf, storageEnvShape, type FileStorage } from './index';

const envSchema = z.object(storageEnvShape('/repo'));
const parseEnv = (env: Record<string, string>) => loadEnv(envSchema, env);

let s3: TestS3;
const folders: string[] = [];
const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-storage-'));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** Stores for one backend, fresh for each test (a new folder, a new prefix). */
type Backend = { name: 'local' | 's3'; stores: () => { uploads: FileStorage; exports: FileStorage; leftovers: () => Promise<string[]> } };

let prefixes = 0;
const backends: Backend[] = [
  {
    name: 'local',
    stores: () => {
      const uploads = folder();
      const exportsDir = folder();
      const stores = createFileStores(parseEnv({}), { uploads, exports: exportsDir });
      const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      return { ...stores, leftovers: async () => [...walk(uploads), ...walk(exportsDir)].filter((f) => f.endsWith('.partial')) };
    },
  },
  {
    name: 's3',
    stores: () => {
      const prefix = `contract-${++prefixes}`;
      const env = parseEnv(s3.env(prefix));
      const stores = createFileStores(env, { uploads: '/unused', exports: '/unused' });
      return {
        ...stores,
        // Objects under the prefix named like the failed write's (listed with ListObjectsV2). The failed
        // multipart upload itself is aborted (s3-stream-upload.ts); s3rver does not implement that call
        // (nor listing uploads), MinIO does.
        leftovers: async () => {
          const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
          const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
          const objects = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/` }));
          client.destroy();
          return (objects.Contents ?? []).map((o) => o.Key!).filter((k) => k.includes('broken'));
        },
      };
    },
  },
];

const chunks = function* (count: number, size: number) {
  for (let i = 0; i < count; i++) yield Buffer.alloc(size, 97 + (i % 26));
};

describe.each(backends)('file storage contract: $name', ({ name, stores }) => {
  it('stores bytes under a key and reads them back as a stream, with size, content type and a validator', async () => {
    const { uploads } = stores();
    await uploads.put('products/upl-1-640.webp', Buffer.from('first'), { contentType: 'image/webp' });
    await uploads.put('products/upl-1-640.webp', Buffer.from('second version'), { contentType: 'image/webp' });
    const stat = await uploads.stat('products/upl-1-640.webp');
    expect(stat).toMatchObject({ size: 14, contentType: 'image/webp' });
    expect(stat!.etag).not.toBe('');
    expect(stat!.lastModified.getTime()).toBeGreaterThan(Date.now() - 60_000);
    const file = await uploads.get('products/upl-1-640.webp');
    expect(file).toMatchObject({ size: 14, contentType: 'image/webp', etag: stat!.etag });
    expect(await text(file!.body)).toBe('second version');
  });

  it('writes a stream without holding it (several parts on S3), and answers its size', async () => {
    const { exports } = stores();
    // 13 MiB in 1 MiB chunks (each its own letter): two 5 MiB parts and a last 3 MiB one on S3; and
    // 10 MiB, exactly two parts (no empty last part). Read back byte for byte, in order.
    for (const [name, mib] of [['big.csv', 13], ['even.csv', 10]] as const) {
      const written = createHash('sha256');
      for (const chunk of chunks(mib, 1024 * 1024)) written.update(chunk);
      const { size } = await exports.putStream(name, Readable.from(chunks(mib, 1024 * 1024)), { contentType: 'text/csv; charset=utf-8' });
      expect(size).toBe(mib * 1024 * 1024);
      const file = await exports.get(name);
      expect(file).toMatchObject({ size, contentType: 'text/csv; charset=utf-8' });
      const read = createHash('sha256');
      for await (const chunk of file!.body as AsyncIterable<Buffer>) read.update(chunk);
      expect(read.digest('hex'), name).toBe(written.digest('hex'));
    }
    const small = await exports.putStream('small.csv', Readable.from(['a,b\r\n', '1,2\r\n']), { contentType: 'text/csv; charset=utf-8' });
    expect(small.size).toBe(10);
    expect(await text((await exports.get('small.csv'))!.body)).toBe('a,b\r\n1,2\r\n');
  });

  it('leaves nothing behind when the stream fails halfway (no file, no partial file or object), and reports the stream\'s own error', async () => {
    const { exports, leftovers } = stores();
    const failing = Readable.from(
      (function* () {
        yield* chunks(9, 1024 * 1024);
        throw new Error('database went away');
      })(),
    );
    await expect(exports.putStream('broken.csv', failing, { contentType: 'text/csv; charset=utf-8' })).rejects.toThrow('database went away');
    expect(await exports.stat('broken.csv')).toBeNull();
    expect(await leftovers()).toEqual([]);
  });

  it('answers null for a missing file, deletes idempotently, and keeps the kinds of files apart', async () => {
    const { uploads, exports } = stores();
    expect(await uploads.get('products/none.webp')).toBeNull();
    expect(await uploads.stat('products/none.webp')).toBeNull();
    expect(await exports.download('none.csv', { fileName: 'x.csv', contentType: 'text/csv' })).toBeNull();
    await uploads.delete('products/none.webp');
    await uploads.put('same.csv', Buffer.from('picture side'), { contentType: 'text/csv' });
    expect(await exports.stat('same.csv')).toBeNull();
    await exports.delete('same.csv');
    expect(await uploads.stat('same.csv')).not.toBeNull();
    await uploads.delete('same.csv');
    expect(await uploads.stat('same.csv')).toBeNull();
  });

  it('lists every file of its own kind (nested keys too) with when it was written, and nothing of another kind', async () => {
    const { uploads, exports } = stores();
    const before = Date.now() - 60_000;
    await uploads.put('a1b2/photo.jpg', Buffer.from('one'), { contentType: 'image/jpeg' });
    await uploads.put('top.webp', Buffer.from('two'), { contentType: 'image/webp' });
    await exports.put('other.csv', Buffer.from('three'), { contentType: 'text/csv' });
    const listed = [];
    for await (const file of uploads.list()) listed.push(file);
    expect(listed.map((f) => f.key).sort()).toEqual(['a1b2/photo.jpg', 'top.webp']);
    for (const f of listed) expect(f.lastModified.getTime()).toBeGreaterThan(before);
    await uploads.delete('a1b2/photo.jpg');
    const after = [];
    for await (const file of uploads.list()) after.push(file.key);
    expect(after).toEqual(['top.webp']);
  });

  it('refuses keys that could leave its folder or prefix', async () => {
    const { uploads } = stores();
    for (const key of ['../etc/passwd', '/abs.webp', 'products/../../x', 'Upper.webp', '', 'a//b']) {
      await expect(uploads.put(key, Buffer.from('x'), { contentType: 'image/webp' }), key).rejects.toThrow(/unsafe storage key/);
    }
  });

  it(name === 'local' ? 'downloads by streaming the file through the API' : 'downloads by a short-lived signed URL the browser follows', async () => {
    const { exports } = stores();
    await exports.put('ready.csv', Buffer.from('Order ID\r\n1\r\n'), { contentType: 'text/csv; charset=utf-8' });
    const answer = await exports.download('ready.csv', { fileName: 'nh-orders-2026-11-26.csv', contentType: 'text/csv; charset=utf-8' });
    if (name === 'local') {
      expect(answer?.kind).toBe('stream');
      if (answer?.kind === 'stream') expect(await text(answer.file.body)).toBe('Order ID\r\n1\r\n');
    } else {
      expect(answer).toMatchObject({ kind: 'redirect', expiresInSeconds: 300 });
      const url = answer?.kind === 'redirect' ? answer.url : '';
      expect(url).toContain('X-Amz-Signature=');
      expect(url).toContain('X-Amz-Expires=300');
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="nh-orders-2026-11-26.csv"');
      expect(await res.text()).toBe('Order ID\r\n1\r\n');
    }
  });
});

describe('the S3 backend', () => {
  it('signs every request (SigV4) and fails plainly with a key the store does not know', async () => {
    if (s3.engine === 's3rver') {
      expect(s3.seen.signed).toBeGreaterThan(10);
      expect(s3.seen.refused).toBe(0);
    }
    const { uploads } = createFileStores(parseEnv({ ...s3.env('wrong-key'), AWS_ACCESS_KEY_ID: 'NOT-A-KEY', AWS_SECRET_ACCESS_KEY: 'nope-nope' }), { uploads: '/unused' });
    await expect(uploads.put('x.webp', Buffer.from('x'), { contentType: 'image/webp' })).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    const unsigned = await fetch(`${s3.endpoint}/${s3.bucket}/contract-1/uploads/products/upl-1-640.webp`);
    expect(unsigned.status).toBe(403);
  });

  it("reports the store's own refusal of a large streaming write, not the premature close of the streams it stops", async () => {
    // Over one part (8 MiB): a multipart upload, which the store refuses (a wrong key; a bucket it does not have).
    const refused = [
      { ...s3.env('wrong-key-big'), AWS_ACCESS_KEY_ID: 'NOT-A-KEY', AWS_SECRET_ACCESS_KEY: 'nope-nope' },
      { ...s3.env('no-bucket'), STORAGE_URL: 's3://no-such-bucket/x' },
    ];
    for (const env of refused) {
      const { exports } = createFileStores(parseEnv(env), { uploads: '/unused', exports: '/unused' });
      const write = exports.putStream('big.csv', Readable.from(chunks(10, 1024 * 1024)), { contentType: 'text/csv; charset=utf-8' });
      await expect(write).rejects.toMatchObject({ $metadata: { httpStatusCode: expect.any(Number) as number } });
    }
  });

  it('signs download URLs for the address browsers use (S3_PUBLIC_ENDPOINT)', async () => {
    const env = parseEnv({ ...s3.env('public'), S3_PUBLIC_ENDPOINT: 'http://files.example.test:9000' });
    const { exports } = createFileStores(env, { exports: '/unused' });
    await exports.put('a.csv', Buffer.from('x'), { contentType: 'text/csv' });
    const answer = await exports.download('a.csv', { fileName: 'a.csv', contentType: 'text/csv' });
    expect(answer?.kind === 'redirect' && new URL(answer.url).origin).toBe('http://files.example.test:9000');
  });
});

describe('storage configuration', () => {
  it('is the local folders unless STORAGE_URL names a bucket', () => {
    expect(s3SettingsOf(parseEnv({}))).toBeNull();
    expect(s3SettingsOf(parseEnv({ STORAGE_URL: '' }))).toBeNull();
    expect(s3SettingsOf(parseEnv({ STORAGE_URL: 's3://shop-files/prod/', S3_ENDPOINT: 'http://minio:9000', AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' }))).toEqual({
      bucket: 'shop-files',
      prefix: 'prod',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      publicEndpoint: undefined,
      forcePathStyle: true,
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      presignSeconds: 300,
    });
    // AWS itself: virtual-hosted addresses and the SDK's own credential chain.
    expect(s3SettingsOf(parseEnv({ STORAGE_URL: 's3://shop-files', S3_REGION: 'eu-west-1' }))).toMatchObject({ bucket: 'shop-files', prefix: '', region: 'eu-west-1', forcePathStyle: false, credentials: undefined });
    expect(parseEnv({}).EXPORTS_DIR).toBe('/repo/.local/exports');
  });

  it('names the wrong variable in one line', () => {
    expect(() => parseEnv({ STORAGE_URL: '/var/files' })).toThrow(/^Invalid configuration: STORAGE_URL: must be s3:\/\/bucket or s3:\/\/bucket\/prefix/);
    expect(() => parseEnv({ STORAGE_URL: 's3://Shop_Files' })).toThrow(/STORAGE_URL/);
    expect(() => parseEnv({ S3_ENDPOINT: 'minio:9000' })).toThrow(/^Invalid configuration: S3_ENDPOINT: /);
    expect(() => parseEnv({ S3_PRESIGN_SECONDS: '86400' })).toThrow(/S3_PRESIGN_SECONDS/);
    expect(() => s3SettingsOf(parseEnv({ STORAGE_URL: 's3://shop-files', AWS_ACCESS_KEY_ID: 'k' }))).toThrow(ConfigError);
    expect(() => s3SettingsOf(parseEnv({ STORAGE_URL: 's3://shop-files', AWS_ACCESS_KEY_ID: 'k' }))).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together/);
  });
});
