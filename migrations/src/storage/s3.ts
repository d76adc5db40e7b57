/**
 * The S3-compatible backend (AWS S3, MinIO, …) over the AWS SDK v3. Each kind of file is a prefix in
 * one bucket (`<prefix>/uploads/…`, `<prefix>/exports/…`). Streaming writes go through
 * `uploadStream` (s3-stream-upload.ts: one PUT for a small body, a multipart upload in two reused part
 * buffers otherwise, aborted if anything fails: no object is left half-written). Downloads are
 * short-lived presigned GET URLs (the browser fetches the object from the store itself;
 * S3_PUBLIC_ENDPOINT when the browser reaches the store at another address than the API does).
 * Product pictures are still served by the API from `get` (their /uploads URLs stay).
 *
 * The SDK is loaded on first use: a process on the local folders never pays its start-up time.
 * Checksums are only sent when an operation requires them: recent SDKs add CRC32 checksums and
 * aws-chunked bodies by default, which several S3-compatible servers refuse.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { uploadStream } from './s3-stream-upload';
import { assertStorageKey, attachmentDisposition, contentTypeOf, type FileStorage, type StoredFile } from './types';

export interface S3Settings {
  bucket: string;
  /** Key prefix inside the bucket ('' for none; no leading or trailing slash). */
  prefix: string;
  region: string;
  /** The store's address as this process reaches it (unset: AWS S3). */
  endpoint?: string;
  /** The store's address as a browser reaches it, for signed download URLs (default: `endpoint`). */
  publicEndpoint?: string;
  forcePathStyle: boolean;
  /** Explicit credentials; without them the SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** How long a signed download URL stays valid. */
  presignSeconds: number;
}

type Sdk = typeof import('@aws-sdk/client-s3');

interface Loaded {
  sdk: Sdk;
  client: S3Client;
  /** Signs download URLs for the public endpoint (signing makes no request). */
  signer: S3Client;
  getSignedUrl: (typeof import('@aws-sdk/s3-request-presigner'))['getSignedUrl'];
}

/**
 * A multipart part: S3's minimum, 5 MiB. A streaming write holds two (one filling, one uploading), and
 * S3 takes 10,000 parts: files up to ~48 GiB.
 */
const PART_BYTES = 5 * 1024 * 1024;

const isNotFound = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** The SDK client(s) of one process, made on first use and shared by every prefix. */
export function s3Connection(settings: S3Settings): () => Promise<Loaded> {
  let loading: Promise<Loaded> | null = null;
  return () =>
    (loading ??= (async () => {
      const [sdk, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
      const config = (endpoint: string | undefined): S3ClientConfig => ({
        region: settings.region,
        endpoint,
        forcePathStyle: settings.forcePathStyle,
        credentials: settings.credentials,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      const client = new sdk.S3Client(config(settings.endpoint));
      const signer = settings.publicEndpoint && settings.publicEndpoint !== settings.endpoint ? new sdk.S3Client(config(settings.publicEndpoint)) : client;
      return { sdk, client, signer, getSignedUrl: presigner.getSignedUrl };
    })());
}

/** The files under `<settings.prefix>/<area>/` of the bucket. */
export function s3FileStorage(settings: S3Settings, area: string, connect: () => Promise<Loaded> = s3Connection(settings)): FileStorage {
  const Bucket = settings.bucket;
  const base = [settings.prefix, area].filter(Boolean).join('/');
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return `${base}/${key}`;
  };
  const storedFileOf = (key: string, head: { ContentLength?: number; ContentType?: string; ETag?: string; LastModified?: Date }): StoredFile => ({
    size: head.ContentLength ?? 0,
    contentType: head.ContentType ?? contentTypeOf(key),
    etag: head.ETag ?? '',
    lastModified: head.LastModified ?? new Date(0),
  });

  const storage: FileStorage = {
    location: `s3://${Bucket}/${base}`,

    async put(key, bytes, { contentType }) {
      const { sdk, client } = await connect();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: objectKey(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
    },

    async putStream(key, body: Readable, { contentType }) {
      const { sdk, client } = await connect();
      return uploadStream({ sdk, client, Bucket, Key: objectKey(key), ContentType: contentType, body, partBytes: PART_BYTES });
    },

    async get(key) {
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(key) }));
        const body = object.Body as Readable | undefined;
        return { ...storedFileOf(key, object), body: body ?? new PassThrough().end() };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async stat(key) {
      const { sdk, client } = await connect();
      try {
        return storedFileOf(key, await client.send(new sdk.HeadObjectCommand({ Bucket, Key: objectKey(key) })));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      const { sdk, client } = await connect();
      // S3 answers 204 for a key that is not there too.
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    async download(key, { fileName, contentType }) {
      // Checked first: a file that is gone is the API's 410, not the store's XML error in the browser.
      if (!(await storage.stat(key))) return null;
      const { sdk, signer, getSignedUrl } = await connect();
      const command = new sdk.GetObjectCommand({ Bucket, Key: objectKey(key), ResponseContentDisposition: attachmentDisposition(fileName), ResponseContentType: contentType, ResponseCacheControl: 'no-store' });
      const url = await getSignedUrl(signer, command, { expiresIn: settings.presignSeconds });
      return { kind: 'redirect', url, expiresInSeconds: settings.presignSeconds };
    },

    async *list() {
      const { sdk, client } = await connect();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: `${base}/`, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key) yield { key: object.Key.slice(base.length + 1), lastModified: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
  return storage;
}
