import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';

/**
 * Marks the page as the app's once its first render is committed (hydrated, for a server-rendered
 * page): `<html data-app-ready>`. Until then a server-rendered page is only markup, and a click on it does
 * nothing; browser tests wait for the mark before they click (web/e2e/support/app.ts).
 */
function AppReadyMark() {
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
  return null;
}

/** What every page runs inside, on the server and in the browser: the query cache its screens share. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {children}
        <AppReadyMark />
      </QueryClientProvider>
    </StrictMode>
  );
}
