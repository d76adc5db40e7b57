/**
 * A line as the shop sells it, from the catalogue row: with a size (`variant`), that size's price, SKU and
 * "Product - Size" name; without, the product's. Checkout, a plan's added products (api catalog/price-list.ts)
 * and the bulk swap's new line (workers bulk-swap) build lines here. A line keeps the product's tax code as
 * it was sold (products.tax_code, issue 25): what the tax calculator is asked with, then and at renewals.
 */
import { centsToDecimal, toCents, type Cents } from '@nh/shared/money';
import type { LineItem, ProductVariant } from './schema';

/** What a line needs of its product. */
export interface CatalogueProduct {
  id: number;
  name: string;
  price: Cents;
  sku: string | null;
  itemNumber: string | null;
  /** A tax provider's product tax code (products.tax_code); null: general goods. */
  taxCode: string | null;
}

/**
 * The line's tax code: present only when the product has one, so a line of general goods is stored
 * as before (absent and null both mean general goods to the tax calculator).
 */
export const taxCodeOf = (product: { taxCode: string | null }): Pick<LineItem, 'taxCode'> => (product.taxCode ? { taxCode: product.taxCode } : {});

export function catalogueLine(product: CatalogueProduct, variant: ProductVariant | null, quantity: number): LineItem {
  return {
    productId: product.id,
    productName: variant ? `${product.name} - ${variant.label}` : product.name,
    variantSku: variant ? variant.sku : null,
    sku: variant ? variant.sku : product.sku,
    itemNumber: product.itemNumber,
    quantity,
    price: centsToDecimal(variant ? toCents(variant.price) : product.price),
    ...taxCodeOf(product),
  };
}
