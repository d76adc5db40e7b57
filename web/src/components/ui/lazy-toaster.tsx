import { lazy, Suspense, useCallback, useState } from 'react';
import { usePreloadWhenIdle } from '@/lib/lazy-dialog';
import { useToast } from './use-toast';

const loadToaster = () => import('./toaster');
const Toaster = lazy(async () => ({ default: (await loadToaster()).Toaster }));

/**
 * The storefront's toasts (toaster.tsx) without Radix Toast in the entry chunk every page loads: the
 * toaster's code loads when the page is idle and mounts then, or at once when a toast is raised before
 * that (the toast store keeps it until the toaster shows it). Until then the page has no toast to show,
 * and the empty notifications region is invisible.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [loaded, setLoaded] = useState(false);
  usePreloadWhenIdle(useCallback(() => loadToaster().then(() => setLoaded(true)), []));
  if (!loaded && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
