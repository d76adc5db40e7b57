import { STORAGE_KEYS } from '@nh/shared/constants';
import { type CartItem } from '@nh/shared/cart';
import { createContext, useContext, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { useHydrated } from '@/lib/use-hydrated';
import { cartItemCount, cartReducer, cartSubtotal, initialCartState, parseSavedCart, type CartState } from './cart-reducer';

export interface CartContextValue {
  items: CartItem[];
  /** Whether the saved cart has been read: false while a server-rendered page hydrates (items then empty). */
  restored: boolean;
  itemCount: number;
  /** Integer cents. */
  subtotal: number;
  isOpen: boolean;
  announcement: string;
  addItem(item: Omit<CartItem, 'quantity'>, quantity?: number): void;
  updateQuantity(productId: number, quantity: number, variantSku?: string | null): void;
  removeItem(productId: number, variantSku?: string | null): void;
  clearCart(): void;
  openCart(): void;
  closeCart(): void;
  toggleCart(): void;
}

const CartContext = createContext<CartContextValue | null>(null);

/** Restores the saved cart; a corrupt one is ignored and logged (storefront §4). */
function loadCart(): CartState {
  try {
    return { ...initialCartState, items: parseSavedCart(localStorage.getItem(STORAGE_KEYS.cart)) };
  } catch (error) {
    console.error('Ignoring the saved cart: it could not be read', error);
    return initialCartState;
  }
}

export function CartProvider({ children }: { children: ReactNode }) {
  // A page the browser renders alone starts with the saved cart; a server-rendered one starts empty, as
  // the server rendered it (it cannot know the cart), and reads the saved cart once hydrated.
  const hydrated = useHydrated();
  const [state, dispatch] = useReducer(cartReducer, hydrated, (ready) => (ready ? loadCart() : initialCartState));
  const [restored, setRestored] = useState(hydrated);

  useEffect(() => {
    if (restored) return;
    dispatch({ type: 'restore', items: loadCart().items });
    setRestored(true);
  }, [restored]);

  useEffect(() => {
    // Until the saved cart is read, the empty one must not overwrite it.
    if (!restored) return;
    try {
      localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify(state.items));
    } catch (error) {
      console.error('Could not save the cart', error);
    }
  }, [state.items, restored]);

  const value = useMemo<CartContextValue>(
    () => ({
      items: state.items,
      restored,
      itemCount: cartItemCount(state.items),
      subtotal: cartSubtotal(state.items),
      isOpen: state.isOpen,
      announcement: state.announcement,
      addItem: (item, quantity) => dispatch({ type: 'add', item, quantity }),
      updateQuantity: (productId, quantity, variantSku) =>
        dispatch({ type: 'setQuantity', productId, quantity, variantSku: variantSku ?? null }),
      removeItem: (productId, variantSku) => dispatch({ type: 'remove', productId, variantSku }),
      clearCart: () => dispatch({ type: 'clear' }),
      openCart: () => dispatch({ type: 'open' }),
      closeCart: () => dispatch({ type: 'close' }),
      toggleCart: () => dispatch({ type: 'toggle' }),
    }),
    [state, restored],
  );

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

/** The cart; throws when used outside CartProvider (storefront §4). */
export function useCart(): CartContextValue {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart must be used within a CartProvider');
  return cart;
}
