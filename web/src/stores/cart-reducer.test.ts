import type { CartItem } from '@nh/shared/cart';
import { describe, expect, it } from 'vitest';
import { cartItemCount, cartReducer, cartSubtotal, initialCartState, parseSavedCart, type CartState } from './cart-reducer';

const surfy = { productId: 1, variantSku: 'SURFY-16', name: 'Surfy - 16 oz', price: 999, slug: 'surfy', image: 'surfy-surface.svg' };
const surfyGallon = { ...surfy, variantSku: 'SURFY-128', name: 'Surfy - 1 gallon', price: 3499 };
const glassy = { productId: 2, variantSku: null, name: 'Glassy', price: 899, slug: 'glassy' };

const add = (state: CartState, item: Omit<CartItem, 'quantity'>, quantity?: number) => cartReducer(state, { type: 'add', item, quantity });

describe('cart reducer', () => {
  it('restores the saved lines without an announcement (read after a server-rendered page hydrates)', () => {
    const saved = [{ productId: 1, variantSku: null, name: 'Surfy', price: 1299, slug: 'surfy', quantity: 2 }];
    const state = cartReducer({ ...initialCartState, isOpen: true }, { type: 'restore', items: saved });
    expect(state).toEqual({ ...initialCartState, isOpen: true, items: saved });
  });

  it('adds a new line with quantity 1 and announces the new item count', () => {
    const state = add(initialCartState, surfy);
    expect(state.items).toEqual([{ ...surfy, quantity: 1 }]);
    expect(state.announcement).toBe('Added Surfy - 16 oz to cart. Cart now has 1 item(s).');
  });

  it('raises the quantity of the same productId + variantSku instead of adding a line', () => {
    let state = add(initialCartState, surfy);
    state = add(state, surfy);
    state = add(state, glassy, 3);
    expect(state.items).toHaveLength(2);
    expect(state.items[0]!.quantity).toBe(2);
    expect(state.items[1]!.quantity).toBe(3);
    expect(state.announcement).toBe('Added Glassy to cart. Cart now has 5 item(s).');
  });

  it('keeps two variants of one product as two lines', () => {
    const state = add(add(initialCartState, surfy), surfyGallon);
    expect(state.items.map((i) => i.variantSku)).toEqual(['SURFY-16', 'SURFY-128']);
    expect(cartItemCount(state.items)).toBe(2);
    expect(cartSubtotal(state.items)).toBe(999 + 3499);
  });

  it('ignores adding zero or a negative quantity', () => {
    expect(add(initialCartState, surfy, 0)).toBe(initialCartState);
    expect(add(initialCartState, surfy, -2)).toBe(initialCartState);
  });

  it('sets a quantity and announces the update', () => {
    const state = cartReducer(add(initialCartState, surfy), { type: 'setQuantity', productId: 1, variantSku: 'SURFY-16', quantity: 4 });
    expect(state.items[0]!.quantity).toBe(4);
    expect(state.announcement).toBe('Updated Surfy - 16 oz quantity');
    expect(cartSubtotal(state.items)).toBe(3996);
  });

  it('removes the line when the quantity is set to 0 or less', () => {
    const base = add(add(initialCartState, surfy), glassy);
    for (const quantity of [0, -1]) {
      const state = cartReducer(base, { type: 'setQuantity', productId: 2, variantSku: null, quantity });
      expect(state.items.map((i) => i.productId)).toEqual([1]);
      expect(state.announcement).toBe('Removed Glassy from cart');
    }
  });

  it('leaves the cart alone when setting the quantity of a line that is not there', () => {
    const base = add(initialCartState, surfy);
    expect(cartReducer(base, { type: 'setQuantity', productId: 1, variantSku: 'OTHER', quantity: 3 })).toBe(base);
  });

  it('removes by productId: every line of the product without a variantSku, one line with it', () => {
    const base = add(add(add(initialCartState, surfy), surfyGallon), glassy);
    const one = cartReducer(base, { type: 'remove', productId: 1, variantSku: 'SURFY-128' });
    expect(one.items.map((i) => i.variantSku)).toEqual(['SURFY-16', null]);
    expect(one.announcement).toBe('Removed Surfy - 1 gallon from cart');
    const all = cartReducer(base, { type: 'remove', productId: 1 });
    expect(all.items.map((i) => i.productId)).toEqual([2]);
  });

  it('clears the cart and opens, closes and toggles the drawer', () => {
    let state = add(initialCartState, surfy);
    state = cartReducer(state, { type: 'clear' });
    expect(state.items).toEqual([]);
    state = cartReducer(state, { type: 'open' });
    expect(state.isOpen).toBe(true);
    state = cartReducer(state, { type: 'toggle' });
    expect(state.isOpen).toBe(false);
    state = cartReducer(state, { type: 'toggle' });
    state = cartReducer(state, { type: 'close' });
    expect(state.isOpen).toBe(false);
  });
});

describe('parseSavedCart', () => {
  it('reads a saved list of lines', () => {
    expect(parseSavedCart(JSON.stringify([{ ...surfy, quantity: 2 }]))).toEqual([{ ...surfy, quantity: 2 }]);
    expect(parseSavedCart(null)).toEqual([]);
  });
  it('rejects text that is not JSON or not a list of valid lines', () => {
    expect(() => parseSavedCart('{not json')).toThrow();
    expect(() => parseSavedCart('{"items":[]}')).toThrow();
    expect(() => parseSavedCart(JSON.stringify([{ ...surfy, quantity: 0 }]))).toThrow();
    expect(() => parseSavedCart(JSON.stringify([{ ...surfy, price: 9.99, quantity: 1 }]))).toThrow();
  });
});
