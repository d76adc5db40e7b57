import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';

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
 * What every page runs inside, on the server and in the browser: the query cache its screens share.
 * `onReady` runs once the first render is committed (a hydrated page is live).
 */
export function AppProviders({ queryClient, onReady, children }: { queryClient: QueryClient; onReady?: () => void; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {children}
        <AppReadyMark onReady={onReady} />
      </QueryClientProvider>
    </StrictMode>
  );
}
