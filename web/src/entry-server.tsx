/**
 * The server's render of a public page (docs/decisions/storefront-web.md, "Server-rendered pages"),
 * built by Vite into web/dist-server/ and loaded by the API at start. The same routes as the browser,
 * with their loaders run here (the page's queries, through `apiFetch`), a query cache of its own per
 * request, and React's streaming render; the query cache and the router's state go into the page as
 * a JSON data block for the browser to hydrate from.
 */
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { AppProviders } from './app/app';
import { createRoutes, hasScreen } from './app/router';
import { ApiError, createQueryClient, type ApiFetch } from './lib/query-client';
import { SERVER_STATE_ID, serverStateJson } from './lib/server-state';

export interface RenderOptions {
  /** How the page's queries reach the API: its own address, without the shopper's cookies. */
  apiFetch: ApiFetch;
  /** Aborted when the caller gives up on the page (its time limit): the router and React stop too. */
  signal?: AbortSignal;
}

export interface RenderedPage {
  /** The app's markup, for inside `<div id="root">` (complete: every part of the page is ready). */
  body: ReadableStream<Uint8Array>;
  /** The `<script type="application/json">` block with the query cache and router state, for after the root. */
  stateScript: string;
}

/**
 * Renders the page at `url` (absolute). Rejects when the page cannot be rendered as the browser would
 * (a loader or render error, a redirect): the caller then sends the page for the browser to render.
 */
export async function render(url: string, { apiFetch, signal }: RenderOptions): Promise<RenderedPage> {
  const queryClient = createQueryClient(apiFetch);
  // A failed call is rendered as its screen shows it (a not-found product), not retried as a screen
  // mounts (which would render the skeleton); the browser hydrates it the same way (hydrateQueries).
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retryOnMount: false },
  });
  const routes = createRoutes(queryClient, { awaitData: true });
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url, { signal }));
  if (context instanceof Response) throw new Error(`The router answered ${context.status} for ${url}`);
  if (context.errors) throw new Error(`The router failed on ${url}: ${JSON.stringify(context.errors)}`);
  // A call that failed for another reason than "not found" (the API down, slow) is not rendered as the
  // page: the browser renders it and asks again.
  const failedCall = queryClient
    .getQueryCache()
    .getAll()
    .find(({ state }) => state.status === 'error' && !(state.error instanceof ApiError && state.error.status === 404));
  if (failedCall) throw new Error(`A call of ${url} failed: ${failedCall.queryHash}: ${String(failedCall.state.error)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const stateScript = `<script type="application/json" id="${SERVER_STATE_ID}">${serverStateJson(queryClient, {
    loaderData: context.loaderData,
    actionData: context.actionData,
    errors: null,
  })}</script>`;

  let failed: unknown = null;
  const body = await renderToReadableStream(
    <AppProviders queryClient={queryClient} hasScreen={(pathname) => hasScreen(routes, pathname)}>
      {/* No hydrate script of the router's own: an inline script the CSP refuses; the state is in stateScript. */}
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
    {
      signal,
      onError(error) {
        // An error inside a part of the page: React would leave that part to the browser, and hydration
        // would not match; the caller sends the page unrendered instead.
        failed ??= error;
      },
    },
  );
  // The data is in before rendering starts, so everything is ready at once: the whole page goes out as
  // markup, in order, with none of React's inline scripts that fill in late parts (the CSP forbids them).
  await body.allReady;
  if (failed) {
    await body.cancel();
    throw failed instanceof Error ? failed : new Error(String(failed));
  }
  return { body, stateScript };
}
