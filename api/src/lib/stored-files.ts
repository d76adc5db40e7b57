/**
 * Serves files of a FileStorage under a path (staff's pictures at /uploads), whichever backend holds
 * them: the bytes streamed through the API with the headers express.static sent for the folder
 * (content type, length, Cache-Control, ETag, Last-Modified) and 304 for a browser's still-fresh copy.
 * The URLs stay the shop's own (same origin, the CSP's img-src 'self'), also with an S3 bucket.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { isStorageKey, type FileStorage, type StoredFile } from '@nh/server/storage';
import { AppError } from './errors';

export function storedFileRoutes(storage: FileStorage, { maxAgeSeconds }: { maxAgeSeconds: number }): Router {
  const router = Router();
  router.use(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).set('Allow', 'GET, HEAD').end();
      return;
    }
    let key: string;
    try {
      key = decodeURIComponent(req.path.slice(1));
    } catch {
      key = '';
    }
    // HEAD needs no bytes: only what the file is (an S3 HEAD, not a GET begun and dropped).
    let file: StoredFile | null = null;
    let body: Readable | null = null;
    if (isStorageKey(key) && req.method === 'HEAD') file = await storage.stat(key);
    else if (isStorageKey(key)) {
      const stream = await storage.get(key);
      file = stream;
      body = stream?.body ?? null;
    }
    if (!file) throw new AppError('NOT_FOUND', 'There is no picture at this address.');
    res.set({
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Cache-Control': `public, max-age=${maxAgeSeconds}`,
      ETag: file.etag,
      'Last-Modified': file.lastModified.toUTCString(),
    });
    // req.fresh compares the browser's If-None-Match / If-Modified-Since with the headers just set.
    if (req.fresh) {
      body?.destroy();
      res.removeHeader('Content-Type');
      res.removeHeader('Content-Length');
      res.status(304).end();
      return;
    }
    if (!body) {
      res.end();
      return;
    }
    await pipeline(body, res);
  });
  return router;
}
