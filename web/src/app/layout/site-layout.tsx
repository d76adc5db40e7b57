import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { LazyToaster } from '@/components/ui/lazy-toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { CartDrawer } from '@/features/cart/components/cart-drawer';
import { NewsletterPopup } from '@/features/newsletter/components/newsletter-popup';
import { CartProvider } from '@/stores/cart-context';
import { PageBackdrop } from './page-backdrop';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
  return null;
}

/** Site frame: providers that need the router, header, skip link, page, footer, cart drawer, toasts. */
export function SiteLayout() {
  return (
    <CartProvider>
      <TooltipProvider>
        <ScrollToTop />
        <a
          href="#main-content"
          className="sr-only z-[60] rounded-md bg-white px-4 py-2 font-semibold text-brand-900 shadow-lg focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to main content
        </a>
        <PageBackdrop />
        <SiteHeader />
        <main id="main-content" tabIndex={-1} className="min-h-[70vh] focus:outline-none">
          <Outlet />
        </main>
        <SiteFooter />
        <CartDrawer />
        <NewsletterPopup />
        <LazyToaster />
      </TooltipProvider>
    </CartProvider>
  );
}
