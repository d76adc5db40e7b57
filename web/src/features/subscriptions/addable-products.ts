/**
 * What a shopper may add to a plan in Change Items: the shop's active products, each size its own choice
 * (named as the plan and the cart name it: "Product - Size"), without the lines already on the plan or
 * chosen. The server decides again from its catalogue and prices every line; these prices are only shown.
 */
import type { Product } from '@nh/shared/contracts/catalog';

export interface AddableProduct {
  /** `productId:variantSku` (empty without a size): one plan line. */
  key: string;
  productId: number;
  variantSku: string | null;
  name: string;
  /** Unit price before the plan's discount, two decimals. */
  price: string;
}

export const planLineKey = (line: { productId: number; variantSku: string | null }) => `${line.productId}:${line.variantSku ?? ''}`;

export function addableProducts(products: readonly Product[], taken: ReadonlySet<string>): AddableProduct[] {
  const choices = products
    .filter((p) => p.status === 'active')
    .flatMap<AddableProduct>((p) =>
      p.variants.length > 0
        ? p.variants.map((v) => ({ key: planLineKey({ productId: p.id, variantSku: v.sku }), productId: p.id, variantSku: v.sku, name: `${p.name} - ${v.label}`, price: v.price }))
        : [{ key: planLineKey({ productId: p.id, variantSku: null }), productId: p.id, variantSku: null, name: p.name, price: p.price }],
    );
  return choices.filter((c) => !taken.has(c.key)).sort((a, b) => a.name.localeCompare(b.name));
}
