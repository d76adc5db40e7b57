import { useCart } from '@/stores/cart-context';

/** The checkout page's section (routes/checkout.tsx) and its heading, shared with the shell below. */
export const CHECKOUT_SECTION_CLASS = 'mx-auto max-w-6xl px-4 pb-16 pt-28 sm:px-6 lg:px-8';

export function CheckoutHeading() {
  return <h1 className="mb-6 text-3xl font-semibold text-brand-900">Checkout</h1>;
}

/**
 * What the checkout shows while its code loads (the route's `hydrateFallbackElement`, app/router.tsx):
 * the checkout renders in the browser, and until its chunk arrives the page was blank. With this the
 * site frame and the page's heading (its largest paint, the LCP element) paint as soon as the entry has
 * run, in the place the page puts them; the space below is held (a screen's height) so the footer stays
 * out of view and nothing moves when the form arrives. An empty cart keeps the blank wait: its page is
 * another heading ("Your cart is empty"). Never rendered on the server (the server resolves the route).
 */
export function CheckoutShell() {
  const { items } = useCart();
  if (items.length === 0) return <div className="min-h-screen" aria-busy="true" />;
  return (
    <section className={CHECKOUT_SECTION_CLASS} aria-busy="true">
      <CheckoutHeading />
      <div className="min-h-screen" />
    </section>
  );
}
