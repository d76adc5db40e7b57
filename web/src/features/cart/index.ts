export { CartProvider, useCart, type CartContextValue } from './cart-context';
export { CartDrawer } from './cart-drawer';
export { cartItemCount, cartSubtotal } from './cart-reducer';
