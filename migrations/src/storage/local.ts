/**
 * The local folder backend (the default): each key a file under `root`, as before there was an object
 * store. Writes go to a `.partial` file beside the target and are renamed into place, so a reader never
 * sees half a file; downloads are streamed through the API. Content types come from the key's
 * extension (a file keeps none of its own).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, contentTypeOf, isStorageKey, type FileStorage, type StoredFile } from './types';

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** What `fs.Stats` says of a file, as the interface's StoredFile (the weak ETag express.static sends). */
const storedFileOf = (key: string, stats: fs.Stats): StoredFile => ({
  size: stats.size,
  contentType: contentTypeOf(key),
  etag: `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`,
  lastModified: stats.mtime,
});

export function localFileStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    assertStorageKey(key);
    return path.join(root, key);
  };
  const partialOf = (file: string) => `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;

  const storage: FileStorage = {
    location: root,

    async put(key, bytes) {
      const file = resolve(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const partial = partialOf(file);
      try {
        await fsp.writeFile(partial, bytes);
        await fsp.rename(partial, file);
      } catch (error) {
        await fsp.rm(partial, { force: true }).catch(() => {});
        throw error;
      }
    },

    async putStream(key, body: Readable) {
      const file = resolve(key);
      const partial = partialOf(file);
      try {
        await fsp.mkdir(path.dirname(file), { recursive: true });
        // 64 KB queued at most: a Buffer that waits long in a queue outlives young-generation collections
        // and, once written, stays in memory until a full one (issue 26, workers/src/exports/processor.ts).
        const target = fs.createWriteStream(partial, { highWaterMark: 64 * 1024 });
        await pipeline(body, target);
        await fsp.rename(partial, file);
        return { size: target.bytesWritten };
      } catch (error) {
        body.destroy();
        await fsp.rm(partial, { force: true }).catch(() => {});
        throw error;
      }
    },

    async get(key) {
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(resolve(key), 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      try {
        // Stat through the open handle: the file streamed is the file described, even if it is replaced meanwhile.
        const stats = await handle.stat();
        if (!stats.isFile()) {
          await handle.close();
          return null;
        }
        return { ...storedFileOf(key, stats), body: handle.createReadStream() };
      } catch (error) {
        await handle.close().catch(() => {});
        throw error;
      }
    },

    async stat(key) {
      try {
        const stats = await fsp.stat(resolve(key));
        return stats.isFile() ? storedFileOf(key, stats) : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      await fsp.rm(resolve(key), { force: true });
    },

    async download(key) {
      const file = await storage.get(key);
      return file ? { kind: 'stream', file } : null;
    },

    async *list() {
      // Folder by folder (a missing root is an empty store); keys are the paths under root with '/'.
      const folders = [''];
      while (folders.length) {
        const folder = folders.pop()!;
        let entries: fs.Dirent[];
        try {
          entries = await fsp.readdir(path.join(root, folder), { withFileTypes: true });
        } catch (error) {
          if (isMissing(error)) continue;
          throw error;
        }
        for (const entry of entries) {
          const key = folder ? `${folder}/${entry.name}` : entry.name;
          if (entry.isDirectory()) folders.push(key);
          else if (entry.isFile() && isStorageKey(key) && !key.endsWith('.partial')) {
            const stored = await storage.stat(key);
            if (stored) yield { key, lastModified: stored.lastModified };
          }
        }
      }
    },
  };
  return storage;
}
