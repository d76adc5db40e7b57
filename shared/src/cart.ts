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

/**
 * The stock an order's lines take, one entry per product in id order (two variants of one product
 * share its stock): the order product rows are locked in, so two orders sharing products cannot deadlock.
 */
export function stockByProduct(lines: ReadonlyArray<{ productId: number; quantity: number }>): { productIds: number[]; quantities: number[] } {
  const wanted = new Map<number, number>();
  for (const line of lines) wanted.set(line.productId, (wanted.get(line.productId) ?? 0) + line.quantity);
  const productIds = [...wanted.keys()].sort((a, b) => a - b);
  return { productIds, quantities: productIds.map((id) => wanted.get(id)!) };
}
