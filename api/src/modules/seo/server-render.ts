/**
 * The storefront's server render: the web build's `web/dist-server/entry-server.js` (built by
 * `npm run build` beside `web/dist`), loaded once by path at start; the API never imports web source.
 * It renders a public page's body (React, with the page's data) for the SPA fallback to stream into
 * `<div id="root">`. Without the file (development, a build without it) pages go out with the empty
 * root, for the browser to render, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Request } from 'express';
import { loggablePath } from '@nh/server/observability/loggable-url';
import type { Logger } from '@nh/server/observability/logger';
import { cookieOf } from '../../lib/cookies';
import { READ_YOUR_WRITES_COOKIE } from '../../lib/read-your-writes';
import { localOrigin } from './site-origin';

/** The contract of `web/src/entry-server.tsx` (declared here: the API does not import web code). */
export interface RenderedPage {
  body: ReadableStream<Uint8Array>;
  stateScript: string;
}
interface EntryServer {
  render(url: string, options: { apiFetch: (path: string) => Promise<Response>; signal?: AbortSignal }): Promise<RenderedPage>;
}

/** Renders the page of a request, or answers null when the page goes out for the browser to render. */
export type RenderPage = (req: Request, url: string) => Promise<RenderedPage | null>;

/**
 * The head of a page the server rendered, with the app's entry script fetched at low priority. The page
 * is already there, so its stylesheet and largest picture should have the connection first; the script,
 * which takes the page over, comes after them (clicks meanwhile are held: web/src/lib/early-clicks.ts).
 * A page the browser renders keeps the browser's default (high): nothing shows until its script runs.
 */
export function withEntryScriptAtLowPriority(head: string): string {
  return head.replace(/<script type="module"(?![^>]*fetchpriority)/, '<script type="module" fetchpriority="low"');
}

/** Longest a page's render may take (its API calls included) before it is sent for the browser to render. */
const RENDER_TIMEOUT_MS = 3000;

export function entryServerPath(webDist: string): string {
  return path.join(webDist, '..', 'dist-server', 'entry-server.js');
}

/** One load per file and process, shared by the preload and the renderer. */
const entries = new Map<string, Promise<EntryServer | null>>();

function loadEntry(file: string, log: Logger): Promise<EntryServer | null> {
  let entry = entries.get(file);
  if (!entry) {
    // Loaded once: a new web build means a new API process (as does its index.html's chunk names).
    const built = fs.existsSync(file);
    if (!built) log.info({ file }, 'No server render built: pages are rendered in the browser');
    entry = built
      ? (import(pathToFileURL(file).href) as Promise<EntryServer>).catch((error: unknown) => {
          log.error({ err: error, file }, 'The server render could not be loaded: pages are rendered in the browser');
          return null;
        })
      : Promise.resolve(null);
    entries.set(file, entry);
  }
  return entry;
}

/**
 * Loads the server render before the API listens (main.ts): compiling the bundle takes ~150 ms of CPU
 * on two cores, which would otherwise land on the first requests a new process answers.
 */
export async function preloadServerRender(webDist: string, log: Logger): Promise<void> {
  await loadEntry(entryServerPath(webDist), log);
}

export function serverRender(webDist: string, log: Logger): RenderPage {
  const entry = loadEntry(entryServerPath(webDist), log);

  return async (req, url) => {
    const renderer = await entry;
    if (!renderer) return null;
    // The page's calls go to this API over the connection's own local address, with none of the
    // shopper's cookies or headers (but the read-your-writes mark): a server-rendered page shows what any guest sees.
    const self = localOrigin(req);
    const readYourWrites = cookieOf(req, READ_YOUR_WRITES_COOKIE);
    const timeout = new AbortController();
    const apiFetch = (apiPath: string) => {
      const target = new URL(apiPath, self);
      // Only this API's reads, and no dot segments (a crafted slug climbing to another endpoint).
      if (target.origin !== self || !target.pathname.startsWith('/api/') || /(^|\/)\.{1,2}(\/|$|\?)/.test(apiPath.split('?')[0]!)) {
        return Promise.reject(new Error(`The server render may not fetch ${apiPath}`));
      }
      // The one cookie passed on: a person who has just changed something reads the primary (lib/read-your-writes.ts).
      return fetch(target, {
        headers: { accept: 'application/json', ...(readYourWrites ? { cookie: `${READ_YOUR_WRITES_COOKIE}=${readYourWrites}` } : {}) },
        signal: timeout.signal,
      });
    };
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const rendering = renderer.render(url, { apiFetch, signal: timeout.signal });
      // A render that finishes after the timeout: its body is nobody's, so it is cancelled.
      rendering.then(
        (late) => void (timeout.signal.aborted && late.body.cancel().catch(() => {})),
        () => {},
      );
      const page = await Promise.race([
        rendering,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            timeout.abort();
            reject(new Error(`The render took longer than ${RENDER_TIMEOUT_MS} ms`));
          }, RENDER_TIMEOUT_MS);
        }),
      ]);
      log.debug({ path: loggablePath(req.path), ms: Math.round(performance.now() - started) }, 'page rendered on the server');
      return page;
    } catch (error) {
      log.error(
        { err: error, path: loggablePath(req.path) },
        'The page could not be rendered on the server: sent for the browser to render',
      );
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}
