import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { HasScreenContext } from '@/lib/app-paths';

/**
 * Marks the page as the app's once its first render is committed (hydrated, for a server-rendered
 * page): `<html data-app-ready>`. Until then a server-rendered page is only markup, and a click on it does
 * nothing; browser tests wait for the mark before they click (web/e2e/support/app.ts).
 */
function AppReadyMark({ onReady }: { onReady?: () => void }) {
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
    onReady?.();
  }, [onReady]);
  return null;
}

/**
 * What every page runs inside, on the server and in the browser: the query cache its screens share and
 * the router's answer to "does the app have a screen for this path" (links in content use it).
 * `onReady` runs once the first render is committed (a hydrated page is live).
 */
export function AppProviders({
  queryClient,
  hasScreen,
  onReady,
  children,
}: {
  queryClient: QueryClient;
  hasScreen: (pathname: string) => boolean;
  onReady?: () => void;
  children: ReactNode;
}) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <HasScreenContext.Provider value={hasScreen}>{children}</HasScreenContext.Provider>
        <AppReadyMark onReady={onReady} />
      </QueryClientProvider>
    </StrictMode>
  );
}
