/**
 * Where uploaded pictures live, behind one small interface: the local uploads folder today (served at
 * /uploads), an object store later without touching the callers.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface ImageStorage {
  /** Stores `bytes` under `key` (e.g. `products/upl-ab12-640.webp`); a repeat overwrites with the same bytes. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The public URL of a stored key. */
  urlOf(key: string): string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

/** Files under `root`, served by the API at `urlBase` (`/uploads`). */
export function localImageStorage(root: string, urlBase = '/uploads'): ImageStorage {
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, bytes) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside, then renamed: a reader never sees half a picture.
      const partial = `${file}.${process.pid}.partial`;
      await fs.writeFile(partial, bytes);
      await fs.rename(partial, file);
    },
    urlOf: (key) => `${urlBase}/${key}`,
  };
}
