import { useEffect, useState } from 'react';

/**
 * For a dialog of the site frame (cart drawer, mobile menu, newsletter popup) whose code is its own
 * chunk, loaded with `React.lazy`: a closed Radix dialog renders nothing, so the frame leaves it out of
 * the entry chunk every page loads (and out of the server's HTML, where it rendered nothing either).
 *
 * `useOpenedOnce(open)` is true from the first opening on: the dialog mounts then and stays mounted, so
 * it keeps its closing animation and its state as before.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * Loads `load` (the dialog's chunk) once the page has loaded and the browser is idle, so the first
 * opening does not wait for the network; a first visit's critical path does not carry it.
 */
export function usePreloadWhenIdle(load: () => Promise<unknown>): void {
  useEffect(() => {
    let cancelled = false;
    let cancelIdle = () => {};
    const preload = () => {
      if (cancelled) return;
      const run = () => void load().catch(() => undefined);
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(run, { timeout: 4000 });
        cancelIdle = () => window.cancelIdleCallback(id);
      } else {
        const id = window.setTimeout(run, 1000);
        cancelIdle = () => window.clearTimeout(id);
      }
    };
    if (document.readyState === 'complete') preload();
    else window.addEventListener('load', preload, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', preload);
      cancelIdle();
    };
  }, [load]);
}
