/**
 * A local S3-protocol server for tests (nothing beyond 127.0.0.1): MinIO when its binary is on the
 * PATH, otherwise s3rver (an npm package speaking the S3 REST protocol: PUT, GET, HEAD, DELETE,
 * ListObjectsV2, multipart uploads, presigned GETs). s3rver does not check SigV4 signatures itself, so
 * a first middleware refuses (403) any request that is not SigV4-signed with the test's access key,
 * and counts what it saw: a test can assert that every request the SDK made was signed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

/** The part of s3rver (a Koa app; no published types) used here. */
interface S3rverContext {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}
interface S3rverServer {
  /** Koa's middleware list, composed when the server starts: an entry put first runs first. */
  middleware: Array<(ctx: S3rverContext, next: () => Promise<void>) => Promise<void>>;
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string; resetOnClose: boolean; configureBuckets: Array<{ name: string }> }) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export interface TestS3 {
  /** minio (its binary was found) or s3rver. */
  engine: 'minio' | 's3rver';
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Requests seen (s3rver): SigV4-signed ones, and refused ones (unsigned or another key). */
  seen: { signed: number; refused: number };
  /** The variables that point a process's storage at this server, under `prefix` of the bucket. */
  env: (prefix: string) => Record<string, string>;
  close: () => Promise<void>;
}

const BUCKET = 'nh-test';
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

function minioBinary(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'minio');
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}


/** `AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/s3/aws4_request, …` (header) or the same in the query (presigned). */
function signedWith(headers: Record<string, string | string[] | undefined>, query: Record<string, string | string[] | undefined>, accessKey: string): boolean {
  const auth = headers.authorization;
  if (typeof auth === 'string') return auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKey}/`) && /SignedHeaders=[^,]*host/.test(auth) && /Signature=[0-9a-f]{64}$/.test(auth);
  return query['X-Amz-Algorithm'] === 'AWS4-HMAC-SHA256' && String(query['X-Amz-Credential'] ?? '').startsWith(`${accessKey}/`) && /^[0-9a-f]{64}$/.test(String(query['X-Amz-Signature'] ?? ''));
}

async function startS3rver(directory: string): Promise<Omit<TestS3, 'env'>> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: BUCKET }] });
  const seen = { signed: 0, refused: 0 };
  server.middleware.unshift(async (ctx, next) => {
    if (!signedWith(ctx.headers, ctx.query, ACCESS_KEY)) {
      seen.refused++;
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Requests must be signed (SigV4) with the test key.</Message></Error>';
      return;
    }
    seen.signed++;
    await next();
  });
  const { port } = await server.run();
  return { engine: 's3rver', endpoint: `http://127.0.0.1:${port}`, bucket: BUCKET, accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, seen, close: () => server.close() };
}

async function startMinio(binary: string, directory: string): Promise<Omit<TestS3, 'env'>> {
  const [port, consolePort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(binary, ['server', directory, '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`], {
    env: { ...process.env, MINIO_ROOT_USER: ACCESS_KEY.padEnd(8, 'X'), MINIO_ROOT_PASSWORD: SECRET_KEY.padEnd(8, 'X') },
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const live = await fetch(`${endpoint}/minio/health/live`).then((r) => r.ok, () => false);
    if (live) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error('minio did not start within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const credentials = { accessKeyId: ACCESS_KEY.padEnd(8, 'X'), secretAccessKey: SECRET_KEY.padEnd(8, 'X') };
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  client.destroy();
  return {
    engine: 'minio',
    endpoint,
    bucket: BUCKET,
    ...credentials,
    // MinIO checks every signature itself.
    seen: { signed: 0, refused: 0 },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Starts a local S3-protocol server with an empty bucket `nh-test`; `close` stops it and removes its files. */
export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-s3-'));
  const binary = minioBinary();
  const server = binary ? await startMinio(binary, directory) : await startS3rver(directory);
  return {
    ...server,
    env: (prefix) => ({
      STORAGE_URL: `s3://${server.bucket}/${prefix}`,
      S3_ENDPOINT: server.endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    }),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
