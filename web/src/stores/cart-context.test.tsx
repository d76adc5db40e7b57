import { STORAGE_KEYS } from '@nh/shared/constants';
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CartProvider, useCart } from './cart-context';

const wrapper = ({ children }: { children: ReactNode }) => <CartProvider>{children}</CartProvider>;
const line = { productId: 7, variantSku: null, name: 'Flushy', price: 1299, slug: 'flushy' };

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('CartProvider', () => {
  it('saves every change to local storage and restores it on the next load', () => {
    const first = renderHook(() => useCart(), { wrapper });
    act(() => first.result.current.addItem(line, 2));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.cart)!)).toEqual([{ ...line, quantity: 2 }]);
    first.unmount();

    const second = renderHook(() => useCart(), { wrapper });
    expect(second.result.current.items).toEqual([{ ...line, quantity: 2 }]);
    expect(second.result.current.itemCount).toBe(2);
    expect(second.result.current.subtotal).toBe(2598);
  });

  it('on a server-rendered page: starts empty as the server rendered it, reads the saved cart once hydrated, never overwrites it first', async () => {
    localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify([{ ...line, quantity: 3 }]));
    const saves = vi.spyOn(Storage.prototype, 'setItem');
    const errors = vi.spyOn(console, 'error');
    function Count() {
      return <span data-testid="count">{useCart().itemCount}</span>;
    }
    const tree = (
      <CartProvider>
        <Count />
      </CartProvider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(tree);
    expect(container.textContent).toBe('0');
    document.body.append(container);
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, tree, { onRecoverableError: (error) => recoverable.push(error) });
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(container.textContent).toBe('3');
    // Nothing but the restored cart was ever written.
    for (const [, value] of saves.mock.calls) expect(JSON.parse(value)).toEqual([{ ...line, quantity: 3 }]);
    container.remove();
  });

  it('ignores a corrupt saved cart and logs an error', () => {
    localStorage.setItem(STORAGE_KEYS.cart, '{broken');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result } = renderHook(() => useCart(), { wrapper });
    expect(result.current.items).toEqual([]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('saved cart'), expect.anything());
  });

  it('exposes the announcement of the last change', () => {
    const { result } = renderHook(() => useCart(), { wrapper });
    act(() => result.current.addItem(line));
    expect(result.current.announcement).toBe('Added Flushy to cart. Cart now has 1 item(s).');
    act(() => result.current.updateQuantity(7, 3));
    expect(result.current.announcement).toBe('Updated Flushy quantity');
    act(() => result.current.removeItem(7));
    expect(result.current.announcement).toBe('Removed Flushy from cart');
    expect(result.current.items).toEqual([]);
  });

  it('throws when used outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Orphan() {
      useCart();
      return null;
    }
    expect(() => render(<Orphan />)).toThrow('useCart must be used within a CartProvider');
    expect(screen.queryByText('anything')).toBeNull();
  });
});
