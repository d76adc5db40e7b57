/**
 * For the product screens' component tests: like `stubApi` of ../test-support, a fetch answering
 * `"METHOD /path"` from a table, but a reply may carry headers (the product list's X-Total-Count) and a
 * call records its request headers and a body that is not JSON (an uploaded picture).
 */
import { vi } from 'vitest';

export interface StubReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export type StubHandler = (body: unknown, url: string) => StubReply;
export interface StubCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
  /** A body that is not JSON text (an uploaded file). */
  raw: unknown;
}

export function stubCatalogApi(routes: Record<string, StubReply | StubHandler>): StubCall[] {
  const calls: StubCall[] = [];
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
      const reply = typeof route === 'function' ? route(body, url) : (route ?? { status: 404, body: { message: 'Not found' } });
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json', ...reply.headers },
      });
    }),
  );
  return calls;
}
