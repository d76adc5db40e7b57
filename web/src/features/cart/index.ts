export { CartProvider, useCart, type CartContextValue } from './cart-context';
export { cartItemCount, cartSubtotal } from './cart-reducer';
