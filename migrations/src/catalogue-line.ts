/**
 * A line as the shop sells it, from the catalogue row: with a size (`variant`), that size's price, SKU and
 * "Product - Size" name; without, the product's. Checkout, a plan's added products (api catalog/price-list.ts)
 * and the bulk swap's new line (workers bulk-swap) build lines here.
 */
import { centsToDecimal, toCents, type Cents } from '@nh/shared/money';
import type { LineItem, ProductVariant } from './db/schema';

/** What a line needs of its product. */
export interface CatalogueProduct {
  id: number;
  name: string;
  price: Cents;
  sku: string | null;
  itemNumber: string | null;
}

export function catalogueLine(product: CatalogueProduct, variant: ProductVariant | null, quantity: number): LineItem {
  return {
    productId: product.id,
    productName: variant ? `${product.name} - ${variant.label}` : product.name,
    variantSku: variant ? variant.sku : null,
    sku: variant ? variant.sku : product.sku,
    itemNumber: product.itemNumber,
    quantity,
    price: centsToDecimal(variant ? toCents(variant.price) : product.price),
  };
}
