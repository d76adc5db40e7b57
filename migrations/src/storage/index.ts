/**
 * @nh/server/storage: the files api and workers share (product pictures, export files) behind one
 * interface, on the local folders (default) or in an S3-compatible bucket (STORAGE_URL).
 * docs/decisions/file-storage.md says why and how.
 */
import { s3SettingsOf, type StorageEnv } from './config';
import { localFileStorage } from './local';
import { s3Connection, s3FileStorage } from './s3';
import type { FileStorage } from './types';

export * from './types';
export { storageEnvShape, s3SettingsOf, type StorageEnv } from './config';
export { localFileStorage } from './local';
export { s3FileStorage, type S3Settings } from './s3';

/**
 * The process's stores, one per kind of file it handles (`folders`: each kind's local folder, e.g.
 * `{ uploads: UPLOADS_DIR, exports: EXPORTS_DIR }`): those folders, or, with STORAGE_URL, the prefix
 * `<kind>/` of the bucket, all through one S3 client.
 */
export function createFileStores<K extends string>(env: StorageEnv, folders: Record<K, string>): Record<K, FileStorage> {
  const s3 = s3SettingsOf(env);
  const connect = s3 ? s3Connection(s3) : null;
  const entries = (Object.entries(folders) as Array<[K, string]>).map(([kind, folder]) => [kind, s3 && connect ? s3FileStorage(s3, kind, connect) : localFileStorage(folder)] as const);
  return Object.fromEntries(entries) as Record<K, FileStorage>;
}
