import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createQueryClient } from './query-client';
import { hydrateQueries, readServerState, SERVER_STATE_ID, serverStateJson, type ServerState } from './server-state';

const router = { loaderData: { '0-2': null }, actionData: null, errors: null };

afterEach(() => document.getElementById(SERVER_STATE_ID)?.remove());

/** The block as the server writes it into a page, read back as the browser does. */
function roundTrip(json: string): ServerState | null {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = SERVER_STATE_ID;
  block.textContent = json;
  document.body.append(block);
  return readServerState(document);
}

describe('the server state block', () => {
  it('cannot be ended by the data: no "<" in it, and it reads back as the same data', async () => {
    const server = createQueryClient(async () => new Response(JSON.stringify({ name: 'Evil </script><script>alert(1)</script> <!--' })));
    await server.prefetchQuery({ queryKey: ['/api/products', 'evil'] });
    const json = serverStateJson(server, router);
    expect(json).not.toContain('<');
    const state = roundTrip(json);
    expect(state?.router).toEqual(router);
    expect(state?.queries.queries[0]?.state.data).toEqual({ name: 'Evil </script><script>alert(1)</script> <!--' });
  });

  it('carries answers and not-found errors, not calls still pending; the browser gets the error back and does not ask again on mount', async () => {
    const server = createQueryClient(async (url) =>
      url.endsWith('/missing') ? new Response('{"message":"Product not found"}', { status: 404 }) : new Response('[]'),
    );
    await server.prefetchQuery({ queryKey: ['/api/products'] });
    await server.prefetchQuery({ queryKey: ['/api/products', 'missing'] });
    void server.prefetchQuery({ queryKey: ['/api/pending'], queryFn: () => new Promise(() => {}) });
    const state = roundTrip(serverStateJson(server, router))!;
    expect(state.queries.queries.map((q) => q.queryKey)).toEqual([['/api/products'], ['/api/products', 'missing']]);

    const calls: string[] = [];
    const browser = createQueryClient(async (url) => {
      calls.push(url);
      return new Response('[]');
    });
    hydrateQueries(browser, state.queries);
    const error = browser.getQueryState(['/api/products', 'missing'])?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).serverMessage).toBe('Product not found');
    // A screen mounting both queries renders them as the server did, with no call.
    for (const queryKey of [['/api/products'], ['/api/products', 'missing']]) {
      const observer = new QueryObserver(browser, { queryKey });
      const unsubscribe = observer.subscribe(() => {});
      expect(observer.getCurrentResult().status).toBe(queryKey.length === 1 ? 'success' : 'error');
      unsubscribe();
    }
    expect(calls).toEqual([]);
  });

  it('is absent on a page the browser renders alone, and a broken one is ignored (logged)', () => {
    expect(readServerState(document)).toBeNull();
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      expect(roundTrip('{broken')).toBeNull();
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
