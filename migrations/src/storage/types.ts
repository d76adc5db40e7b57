/**
 * The one storage interface of the files api and workers share (product pictures, export files): keys,
 * not paths, so the same calls reach the local folders or an S3-compatible object store.
 */
import type { Readable } from 'node:stream';

/** What a stored file is (no bytes). */
export interface StoredFile {
  size: number;
  contentType: string;
  /** A validator for conditional requests: the local file's size and time (weak), the object's ETag (S3). */
  etag: string;
  lastModified: Date;
}

/** A stored file's bytes as a stream, with what it is. The reader consumes or destroys `body`. */
export interface StoredFileStream extends StoredFile {
  body: Readable;
}

/**
 * How a download reaches the browser: the bytes streamed through the API (the local folders), or a
 * redirect to a short-lived signed GET URL of the object store (S3), so a large file never passes
 * through an API process.
 */
export type DownloadAnswer = { kind: 'stream'; file: StoredFileStream } | { kind: 'redirect'; url: string; expiresInSeconds: number };

export interface PutOptions {
  contentType: string;
}

export interface DownloadOptions {
  /** The name the browser saves the file as (Content-Disposition: attachment). */
  fileName: string;
  contentType: string;
}

export interface FileStorage {
  /** Where the files are, for logs and start-up lines (a folder, or s3://bucket/prefix). */
  readonly location: string;
  /** Stores `bytes` under `key`; a repeat overwrites. Readers never see half a file. */
  put(key: string, bytes: Buffer, options: PutOptions): Promise<void>;
  /**
   * Stores what `body` yields under `key` (a streaming write: the whole file is never in memory) and
   * answers its size. Nothing is stored under `key` unless every byte was: when `body` fails, the
   * partial file (local) or the multipart upload (S3) is removed and the error rethrown.
   */
  putStream(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** The file's bytes as a stream, or null when there is no such file. */
  get(key: string): Promise<StoredFileStream | null>;
  /** What the file is, or null when there is none. */
  stat(key: string): Promise<StoredFile | null>;
  /** Removes the file; one already gone is fine. */
  delete(key: string): Promise<void>;
  /** How to hand the file to a browser (see DownloadAnswer), or null when there is no such file. */
  download(key: string, options: DownloadOptions): Promise<DownloadAnswer | null>;
  /**
   * Every file of the store (its key and when it was written), in no particular order, read page by page
   * (never the whole listing in memory); half-written files (a local `.partial`) are not listed.
   */
  list(): AsyncIterable<ListedFile>;
}

/** A file as a listing names it. */
export interface ListedFile {
  key: string;
  lastModified: Date;
}

/** The two kinds of shared files, each a folder locally and a prefix in the bucket. */
export interface FileStores {
  /** Product pictures (served at /uploads/<key> by the API). */
  uploads: FileStorage;
  /** Order CSV exports (written by the exports worker, downloaded through the API, deleted by housekeeping). */
  exports: FileStorage;
}

/** Keys are lower-case relative names (`products/upl-ab12-640.webp`, `<uuid>.csv`): no `..`, no leading slash. */
const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

export const isStorageKey = (key: string): boolean => SAFE_KEY.test(key) && !key.split('/').includes('..') && !key.includes('//') && key.length <= 512;

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
}

/** The content type of a key by its extension (a local file stores none of its own). */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** An order export's content type: written by the worker, sent by the API. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  avif: 'image/avif',
  gif: 'image/gif',
  csv: CSV_CONTENT_TYPE,
};

/** `attachment; filename="…"` with the name kept to safe characters (it comes from our own names, but never trust a header value). */
export const attachmentDisposition = (fileName: string): string => `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
