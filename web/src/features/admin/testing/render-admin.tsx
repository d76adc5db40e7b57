/** For the admin feature's component tests: a fetch stub by method and path, and the admin routes in a memory router. */
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { AdminLayout, AdminPublicLayout } from './components/admin-layout';

// A whole admin screen (layout, session query, then the screen's own query) can take over a second on a busy two-core machine.
configure({ asyncUtilTimeout: 5000 });

export type Reply = { status: number; body?: unknown };
export type Handler = (body: unknown, url: string) => Reply;
export interface Call {
  method: string;
  url: string;
  body: unknown;
}

/**
 * A fetch answering `"METHOD /path"` (the path without its query) from a table; a function gets the
 * parsed JSON body and the whole URL. Anything else is a 404. Returns the calls made.
 */
export function stubApi(routes: Record<string, Reply | Handler>): Call[] {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const route = routes[`${method} ${url.split('?')[0] ?? url}`];
    const reply = typeof route === 'function' ? route(body, url) : (route ?? { status: 404, body: { message: 'Not found' } });
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** Screens inside the admin layout (`signedIn`) and before sign-in (`open`), rendered at `path`. */
export function renderAdmin(path: string, { signedIn = [], open = [] }: { signedIn?: RouteObject[]; open?: RouteObject[] }) {
  const router = createMemoryRouter(
    [
      { Component: AdminLayout, children: signedIn },
      { Component: AdminPublicLayout, children: open },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

