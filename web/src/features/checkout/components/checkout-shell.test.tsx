import { STORAGE_KEYS } from '@nh/shared/constants';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CartProvider } from '@/stores/cart-context';
import { CheckoutShell } from './checkout-shell';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('checkout shell (shown while the checkout code loads)', () => {
  it('shows the page heading where the page puts it when the cart has items', () => {
    localStorage.setItem(
      STORAGE_KEYS.cart,
      JSON.stringify([{ productId: 1, variantSku: null, name: 'Glassy', price: 899, quantity: 1, slug: 'glassy' }]),
    );
    const { container } = render(
      <CartProvider>
        <CheckoutShell />
      </CartProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Checkout' }).className).toBe('mb-6 text-3xl font-semibold text-brand-900');
    expect(container.querySelector('section')?.className).toBe('mx-auto max-w-6xl px-4 pb-16 pt-28 sm:px-6 lg:px-8');
  });

  it('shows no heading for an empty cart (its page says "Your cart is empty")', () => {
    render(
      <CartProvider>
        <CheckoutShell />
      </CartProvider>,
    );
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
