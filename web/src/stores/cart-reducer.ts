/**
 * The cart's rules (storefront §3, §4) as a pure reducer: lines keyed by productId + variantSku, add
 * raises the quantity, a quantity of 0 or less removes the line, remove by productId, clear; every
 * change sets the screen-reader announcement. Prices are integer cents.
 */
import { cartLineKey, type CartItem } from '@nh/shared/cart';

export interface CartState {
  items: CartItem[];
  isOpen: boolean;
  announcement: string;
}

export type CartAction =
  | { type: 'add'; item: Omit<CartItem, 'quantity'>; quantity?: number }
  | { type: 'setQuantity'; productId: number; variantSku: string | null; quantity: number }
  /** variantSku undefined removes every line of the product; null only its line without a variant. */
  | { type: 'remove'; productId: number; variantSku?: string | null }
  | { type: 'clear' }
  /** The saved cart, read after a server-rendered page has hydrated; replaces the lines, no announcement. */
  | { type: 'restore'; items: CartItem[] }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'toggle' };

export const initialCartState: CartState = { items: [], isOpen: false, announcement: '' };

export const cartItemCount = (items: readonly CartItem[]) => items.reduce((sum, item) => sum + item.quantity, 0);
/** Sum of unit price × quantity, in cents. */
export const cartSubtotal = (items: readonly CartItem[]) => items.reduce((sum, item) => sum + item.price * item.quantity, 0);

export const addedAnnouncement = (name: string, count: number) => `Added ${name} to cart. Cart now has ${count} item(s).`;
export const removedAnnouncement = (name: string) => `Removed ${name} from cart`;
export const updatedAnnouncement = (name: string) => `Updated ${name} quantity`;

const sameLine = (a: Pick<CartItem, 'productId' | 'variantSku'>, b: Pick<CartItem, 'productId' | 'variantSku'>) =>
  cartLineKey(a) === cartLineKey(b);

function wholeQuantity(quantity: number | undefined): number {
  if (quantity === undefined) return 1;
  return Number.isFinite(quantity) ? Math.trunc(quantity) : 0;
}

export function cartReducer(state: CartState, action: CartAction): CartState {
  switch (action.type) {
    case 'add': {
      const quantity = wholeQuantity(action.quantity);
      if (quantity <= 0) return state;
      const line = { ...action.item, variantSku: action.item.variantSku ?? null };
      const existing = state.items.find((item) => sameLine(item, line));
      const items = existing
        ? state.items.map((item) => (item === existing ? { ...item, quantity: item.quantity + quantity } : item))
        : [...state.items, { ...line, quantity }];
      return { ...state, items, announcement: addedAnnouncement(line.name, cartItemCount(items)) };
    }
    case 'setQuantity': {
      const key = { productId: action.productId, variantSku: action.variantSku };
      const existing = state.items.find((item) => sameLine(item, key));
      if (!existing) return state;
      const quantity = wholeQuantity(action.quantity);
      if (quantity <= 0) {
        return { ...state, items: state.items.filter((item) => item !== existing), announcement: removedAnnouncement(existing.name) };
      }
      return {
        ...state,
        items: state.items.map((item) => (item === existing ? { ...item, quantity } : item)),
        announcement: updatedAnnouncement(existing.name),
      };
    }
    case 'remove': {
      const removed = state.items.filter(
        (item) => item.productId === action.productId && (action.variantSku === undefined || item.variantSku === action.variantSku),
      );
      if (removed.length === 0) return state;
      return {
        ...state,
        items: state.items.filter((item) => !removed.includes(item)),
        announcement: removedAnnouncement(removed.map((item) => item.name).join(', ')),
      };
    }
    case 'restore':
      return { ...state, items: action.items };
    case 'clear':
      return { ...state, items: [], announcement: state.items.length > 0 ? 'Cart cleared' : state.announcement };
    case 'open':
      return { ...state, isOpen: true };
    case 'close':
      return { ...state, isOpen: false };
    case 'toggle':
      return { ...state, isOpen: !state.isOpen };
  }
}

function isCartItem(value: unknown): value is CartItem {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return (
    Number.isInteger(item.productId) &&
    (item.variantSku === null || typeof item.variantSku === 'string') &&
    typeof item.name === 'string' &&
    Number.isInteger(item.price) &&
    (item.price as number) >= 0 &&
    Number.isInteger(item.quantity) &&
    (item.quantity as number) > 0 &&
    typeof item.slug === 'string' &&
    (item.image === undefined || typeof item.image === 'string')
  );
}

/** Parses a saved cart; throws when it is not a list of valid lines (the caller logs and starts empty). */
export function parseSavedCart(text: string | null): CartItem[] {
  if (text === null) return [];
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every(isCartItem)) throw new Error('Saved cart has an unexpected shape');
  return parsed;
}
