/**
 * For the orders screens' component tests: like `stubApi` of ../test-support, a fetch answering
 * `"METHOD /path"` from a table, but a reply may carry headers (the order list's X-Total-Count), a
 * call records its request headers (the refund's Idempotency-Key), and a handler may answer
 * `NETWORK_FAILURE` to make fetch reject as a lost connection does.
 */
import { vi } from 'vitest';

export interface StubReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export const NETWORK_FAILURE = 'network failure' as const;
export type StubHandler = (body: unknown, url: string, headers: Record<string, string>) => StubReply | typeof NETWORK_FAILURE;
export interface StubCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

export function stubOrdersApi(routes: Record<string, StubReply | StubHandler>): StubCall[] {
  const calls: StubCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
      const method = init?.method ?? 'GET';
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
      calls.push({ method, url, body, headers });
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
