/** A cart line kept in the browser (local storage). Prices are shown from it; the server re-prices. */
export interface CartItem {
  productId: number;
  /** Chosen variant's sku, or null for a product without variants. */
  variantSku: string | null;
  /** Product name, with " - {variant label}" appended when a variant is chosen. */
  name: string;
  /** Unit price in integer cents. */
  price: number;
  quantity: number;
  image?: string;
  slug: string;
}

/** Two items with the same productId and variantSku are one line. */
export const cartLineKey = (item: Pick<CartItem, 'productId' | 'variantSku'>) => `${item.productId}:${item.variantSku ?? ''}`;
