/**
 * Where the shared files live, one shape and one rule for api and workers: the local folders unless
 * STORAGE_URL names an S3 bucket (s3://bucket/prefix). The S3_* variables and the standard
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY say how to reach it.
 */
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, optionalString } from '../runtime/env';
import type { S3Settings } from './s3';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const STORAGE_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;
const httpUrl = z.preprocess(emptyToUndefined, z.string().regex(/^https?:\/\/[^/\s]+/, 'must be an http:// or https:// address, e.g. http://minio:9000').optional());
const optionalBool = z.preprocess((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes'].includes(String(v).toLowerCase())), z.boolean().optional());

/** The storage variables, spread into each process's config schema (`repoRoot`: where the default folders are). */
export const storageEnvShape = (repoRoot: string) => ({
  /** s3://bucket or s3://bucket/prefix: files in that bucket; unset: the local folders (UPLOADS_DIR, EXPORTS_DIR). */
  STORAGE_URL: z.preprocess(emptyToUndefined, z.string().regex(STORAGE_URL, 'must be s3://bucket or s3://bucket/prefix (a lower-case bucket name), or unset for the local folders').optional()),
  /** Export files when STORAGE_URL is unset (the API streams them from there, the worker writes them). */
  EXPORTS_DIR: z.string().default(path.join(repoRoot, '.local/exports')),
  /** The S3-compatible store's address (e.g. http://minio:9000); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: httpUrl,
  /** The store's address as browsers reach it, for signed download links (default S3_ENDPOINT). */
  S3_PUBLIC_ENDPOINT: httpUrl,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().min(1).default('us-east-1')),
  /** Path-style addresses (http://host/bucket/key), which MinIO needs; default: on with S3_ENDPOINT, off for AWS. */
  S3_FORCE_PATH_STYLE: optionalBool,
  /** How long a signed download link of an export stays valid (seconds). */
  S3_PRESIGN_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  AWS_ACCESS_KEY_ID: optionalString(),
  AWS_SECRET_ACCESS_KEY: optionalString(),
});

export type StorageEnv = z.infer<z.ZodObject<ReturnType<typeof storageEnvShape>>>;

/** The S3 settings STORAGE_URL asks for, or null for the local folders; a half-set credential pair is a ConfigError. */
export function s3SettingsOf(env: StorageEnv): S3Settings | null {
  const match = env.STORAGE_URL ? STORAGE_URL.exec(env.STORAGE_URL) : null;
  if (!match) return null;
  if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or neither, for the AWS SDK\'s own credential chain)');
  }
  return {
    bucket: match[1]!,
    prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, ''),
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
    credentials: env.AWS_ACCESS_KEY_ID ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! } : undefined,
    presignSeconds: env.S3_PRESIGN_SECONDS,
  };
}
