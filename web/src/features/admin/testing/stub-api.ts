/**
 * For the admin component tests: a fetch answering `"METHOD /path"` (the path without its query) from a
 * table. A reply may carry headers (a list's X-Total-Count); a handler gets the parsed JSON body, the
 * whole URL and the request's headers (lower-case), and may answer `NETWORK_FAILURE` to make fetch
 * reject as a lost connection does. Anything else is a 404. Returns the calls made.
 */
import { vi } from 'vitest';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export const NETWORK_FAILURE = 'network failure' as const;
export type Handler = (body: unknown, url: string, headers: Record<string, string>) => Reply | typeof NETWORK_FAILURE;
export interface Call {
  method: string;
  url: string;
  /** The JSON body, parsed. */
  body: unknown;
  headers: Record<string, string>;
  /** A body that is not JSON text (an uploaded file). */
  raw: unknown;
}

export function stubApi(routes: Record<string, Reply | Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      const method = init?.method ?? 'GET';
      const text = typeof init?.body === 'string';
      const body: unknown = text ? JSON.parse(init.body as string) : undefined;
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      calls.push({ method, url, body, headers, raw: text ? undefined : init?.body });
      const route = routes[`${method} ${url.split('?')[0] ?? url}`];
      const reply = typeof route === 'function' ? route(body, url, headers) : (route ?? { status: 404, body: { message: 'Not found' } });
      if (reply === NETWORK_FAILURE) throw new TypeError('Failed to fetch');
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json', ...reply.headers },
      });
    }),
  );
  return calls;
}
