import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import accepts from 'accepts';
import fresh from 'fresh';
import vary from 'vary';

interface Representation {
  body: Buffer;
  etag: string;
}

/** A serialised JSON answer ready to send: body bytes plus its strong validator. */
export interface JsonEntry extends Representation {
  expiresAt: number;
  /** The gzip representation, made on first demand and then reused for the entry's lifetime. */
  gzip?: Representation;
}

/** Below this size gzip is not worth it (the compression middleware's default threshold). */
const GZIP_MIN_BYTES = 1024;

/** Strong ETag of a body: length and SHA-1, the format Express's own `etag` uses. */
export function strongEtag(body: Buffer): string {
  return `"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
}

export function toJsonEntry(value: unknown, ttlMs: number, now = Date.now()): JsonEntry {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: strongEtag(body), expiresAt: now + ttlMs };
}

function gzipOf(entry: JsonEntry): Representation {
  if (!entry.gzip) {
    const body = gzipSync(entry.body);
    // A different representation needs a different strong validator.
    entry.gzip = { body, etag: `${entry.etag.slice(0, -1)}-gz"` };
  }
  return entry.gzip;
}

/**
 * Sends a prepared entry: ETag and `Cache-Control: no-cache` (browsers revalidate every time and get a
 * 304 while the bytes are unchanged), then 304 or the bytes. A client that accepts gzip gets the
 * entry's pre-compressed bytes (compressed once per cache entry instead of once per request; the
 * compression middleware leaves an already encoded answer alone).
 *
 * On Node's own request and answer, not Express's: the catalogue's cached answers are also sent ahead
 * of Express (lib/ahead-of-express.ts). The negotiation, Vary and freshness are the libraries Express's
 * `req.acceptsEncodings`, `res.vary` and `req.fresh` use, so both ways answer alike.
 */
export function sendJsonEntry(req: IncomingMessage, res: ServerResponse, entry: JsonEntry): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  let chosen: Representation = entry;
  if (entry.body.length >= GZIP_MIN_BYTES) {
    vary(res, 'Accept-Encoding');
    if (req.headers['accept-encoding'] && accepts(req).encodings(['gzip', 'identity']) === 'gzip') {
      chosen = gzipOf(entry);
      res.setHeader('Content-Encoding', 'gzip');
    }
  }
  res.setHeader('ETag', chosen.etag);
  // Only GET and HEAD routes send entries, and always with a 200 so far: `req.fresh`'s other conditions hold.
  if (req.headers['if-none-match'] && fresh(req.headers, { etag: chosen.etag })) {
    res.removeHeader('Content-Encoding');
    res.statusCode = 304;
    res.end();
    return;
  }
  // The bytes are final: skip res.send's content sniffing, ETag and freshness work.
  res.setHeader('Content-Length', chosen.body.length);
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
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

  /** The live entry for `key`, without loading (the synchronous fast path of a hit). */
  peek(key: string): JsonEntry | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > Date.now() ? hit : undefined;
  }

  async get(key: string, load: () => Promise<unknown>): Promise<JsonEntry | undefined> {
    const hit = this.peek(key);
    if (hit) return hit;
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
