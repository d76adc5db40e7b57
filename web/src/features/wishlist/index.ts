export { useWishlist, toggleWishlist, readWishlist, type WishlistEntry } from './wishlist-store';
