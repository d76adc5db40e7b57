import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while React renders on the server or hydrates server-rendered markup, true otherwise (a page
 * the browser renders alone is true from its first render). What only the browser knows (local
 * storage, scroll position) is read once this is true, so hydration renders exactly the server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
