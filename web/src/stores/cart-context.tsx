import { STORAGE_KEYS } from '@nh/shared/constants';
import { type CartItem } from '@nh/shared/cart';
import { createContext, useContext, useEffect, useMemo, useReducer, type ReactNode } from 'react';
import { cartItemCount, cartReducer, cartSubtotal, initialCartState, parseSavedCart, type CartState } from './cart-reducer';

export interface CartContextValue {
  items: CartItem[];
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
  const [state, dispatch] = useReducer(cartReducer, undefined, loadCart);

  useEffect(() => {
    try {
      localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify(state.items));
    } catch (error) {
      console.error('Could not save the cart', error);
    }
  }, [state.items]);

  const value = useMemo<CartContextValue>(
    () => ({
      items: state.items,
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
    [state],
  );

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

/** The cart; throws when used outside CartProvider (storefront §4). */
export function useCart(): CartContextValue {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart must be used within a CartProvider');
  return cart;
}
