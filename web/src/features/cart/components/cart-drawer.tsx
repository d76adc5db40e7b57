import { lazy, Suspense } from 'react';
import { useOpenedOnce, usePreloadWhenIdle } from '@/lib/lazy-dialog';
import { useCart } from '@/stores/cart-context';

const loadCartSheet = () => import('./cart-sheet');
const CartSheet = lazy(loadCartSheet);

/**
 * The cart drawer: the screen-reader announcement of every cart change (always mounted), and the
 * slide-in cart (cart-sheet.tsx), whose code loads when the page is idle and mounts at the first
 * opening: a closed drawer renders nothing, so a first visit's entry chunk does without it.
 */
export function CartDrawer() {
  const { isOpen, announcement } = useCart();
  const opened = useOpenedOnce(isOpen);
  usePreloadWhenIdle(loadCartSheet);

  return (
    <>
      {/* Screen-reader announcement area for every cart change (kept outside the drawer so it is always mounted). */}
      <div aria-live="polite" aria-atomic="true" role="status" className="sr-only" data-testid="cart-announcement">
        {announcement}
      </div>
      {opened && (
        <Suspense fallback={null}>
          <CartSheet />
        </Suspense>
      )}
    </>
  );
}
