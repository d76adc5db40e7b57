import { STORAGE_KEYS } from '@nh/shared/constants';
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
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
