/**
 * Renders one screen at a path with a fresh query client (the app's own defaults) and a stubbed
 * `fetch` answering from a table of path → JSON body or status. Component tests only: the browser
 * tests in web/e2e drive the real API.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';

export type FakeAnswer = { status: number; body?: unknown } | 'pending';

export function stubFetch(answers: Record<string, FakeAnswer>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const answer = answers[url] ?? { status: 404, body: { message: 'Not found' } };
    if (answer === 'pending') return new Promise<Response>(() => {});
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function renderRoute(pattern: string, path: string, Screen: ComponentType) {
  const router = createMemoryRouter([{ path: pattern, Component: Screen }, { path: '*', element: <p>elsewhere</p> }], { initialEntries: [path] });
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}
