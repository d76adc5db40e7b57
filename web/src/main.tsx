// First: zod's JIT off before any schema is built (the CSP forbids eval; see the module).
import './lib/zod-jitless';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, type HydrationState } from 'react-router-dom';
import { AppProviders } from './app/app';
import { createRoutes, hasScreen, resolveLazyRoutes } from './app/router';
import { createQueryClient } from './lib/query-client';
import { holdEarlyClicks } from './lib/early-clicks';
import { hydrateQueries, readServerState } from './lib/server-state';
import './index.css';

/**
 * A page the server rendered (public pages) is hydrated: its query cache and router state first, then
 * the code of its matched routes, so the first render here equals the server's (no flash, no second
 * call for the same data). Any other page (checkout, a shopper's own pages, the back office, or when the
 * server could not render) is rendered here from the empty root, as before.
 */
async function start(root: HTMLElement) {
  const queryClient = createQueryClient();
  const routes = createRoutes(queryClient, { awaitData: false });
  const appHasScreen = (pathname: string) => hasScreen(routes, pathname);
  const server = root.firstElementChild ? readServerState(document) : null;
  if (!server) {
    createRoot(root).render(
      <AppProviders queryClient={queryClient} hasScreen={appHasScreen}>
        <RouterProvider router={makeRouter(routes)} />
      </AppProviders>,
    );
    return;
  }
  // From here until the page is live, a click on a link or a button is held and then replayed (a link
  // through the router when the app has a screen for it, else as an ordinary navigation): a native
  // navigation started now would be cancelled by the router's own history entry, and a click made before
  // `hydrateRoot` below reaches no handler (lib/early-clicks.ts).
  const clicks = holdEarlyClicks(document);
  const load = (href: string) => window.location.assign(href);
  try {
    hydrateQueries(queryClient, server.queries);
    await resolveLazyRoutes(routes, window.location);
    const browserRouter = makeRouter(routes, server.router);
    // Hydrating as a transition lets React yield between components: a blocking hydration is one long
    // task (~200 ms on a throttled phone). A click in between makes React finish hydrating first; one
    // before this point is held above. storefront-web.md, "Hydration as a transition, with clicks held".
    startTransition(() => {
      hydrateRoot(
        root,
        <AppProviders
          queryClient={queryClient}
          hasScreen={appHasScreen}
          onReady={() => clicks.release({ hasScreen: appHasScreen, route: (href) => void browserRouter.navigate(href), load })}
        >
          <RouterProvider router={browserRouter} />
        </AppProviders>,
      );
    });
  } catch (error) {
    // The app could not take the page over (a chunk that did not load): a held link click goes as a plain link.
    clicks.release({ hasScreen: () => false, route: load, load });
    throw error;
  }
}

const makeRouter = (routes: Parameters<typeof createBrowserRouter>[0], hydrationData?: HydrationState) =>
  createBrowserRouter(routes, hydrationData ? { hydrationData } : undefined);

void start(document.getElementById('root')!);

// Service worker: registered on page load; its outcome is only logged (storefront spec §7).
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then((reg) => console.info('Service worker registered', reg.scope))
      .catch((err: unknown) => console.warn('Service worker registration failed', err));
  });
}
