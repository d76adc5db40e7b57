import { useCart } from '@/stores/cart-context';

/** The checkout page's section (routes/checkout.tsx) and its heading, shared with the shell below. */
export const CHECKOUT_SECTION_CLASS = 'mx-auto max-w-6xl px-4 pb-16 pt-28 sm:px-6 lg:px-8';

export function CheckoutHeading() {
  return <h1 className="mb-6 text-3xl font-semibold text-brand-900">Checkout</h1>;
}

/**
 * What the checkout shows before its form: the page's section and heading (its largest paint, the LCP
 * element) in the place the page puts them, over a screen's height of held space, so the footer stays out
 * of view and nothing moves when the form arrives.
 * - The server renders it (the checkout page renders it until the saved cart is read, routes/checkout.tsx):
 *   the server cannot know the cart, so the heading shows whatever the cart holds, and the browser
 *   hydrates the same markup, then reads the cart.
 * - In the browser it is also the route's `hydrateFallbackElement` (app/router.tsx), while the checkout's
 *   code loads on a page the browser renders (a failed server render). There the cart is known: an empty
 *   one keeps a blank wait, as its page is another heading ("Your cart is empty").
 */
export function CheckoutShell() {
  const { items, restored } = useCart();
  if (restored && items.length === 0) return <div className="min-h-screen" aria-busy="true" />;
  return (
    <section className={CHECKOUT_SECTION_CLASS} aria-busy="true">
      <CheckoutHeading />
      <div className="min-h-screen" />
    </section>
  );
}
