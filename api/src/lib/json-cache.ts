import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A serialised JSON answer ready to send: body bytes plus its strong validator. */
export interface JsonEntry {
  body: Buffer;
  etag: string;
  expiresAt: number;
}

/** Strong ETag of a body: length and SHA-1, the format Express's own `etag` uses. */
export function strongEtag(body: Buffer): string {
  return `"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
}

export function toJsonEntry(value: unknown, ttlMs: number, now = Date.now()): JsonEntry {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: strongEtag(body), expiresAt: now + ttlMs };
}

/**
 * Sends a prepared entry: ETag and `Cache-Control: no-cache` (browsers revalidate every time and get a
 * 304 while the bytes are unchanged), then 304 or the bytes.
 */
export function sendJsonEntry(req: Request, res: Response, entry: JsonEntry): void {
  res.type('json');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('ETag', entry.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.send(entry.body);
}

/**
 * In-process cache of serialised JSON answers, keyed by route. A hit costs a map lookup; concurrent
 * misses for one key share one load, so a burst of requests after expiry still makes one query.
 * `load` answers `undefined` for "nothing there" (a 404), which is never cached, so the cache only
 * ever holds rows that exist and stays as small as the catalogue.
 */
export class JsonCache {
  private readonly entries = new Map<string, JsonEntry>();
  private readonly loading = new Map<string, Promise<JsonEntry | undefined>>();
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  async get(key: string, load: () => Promise<unknown>): Promise<JsonEntry | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;

    const generation = this.generation;
    const promise = (async () => {
      const value = await load();
      if (value === undefined) return undefined;
      const entry = toJsonEntry(value, this.ttlMs);
      // A load that started before an invalidation may hold old rows: answer with it, do not keep it.
      if (this.ttlMs > 0 && generation === this.generation) this.entries.set(key, entry);
      return entry;
    })();
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    }
  }

  /** Drops every entry (after a catalogue write). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
