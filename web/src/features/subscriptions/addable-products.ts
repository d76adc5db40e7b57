/**
 * What a shopper may add to a plan in Change Items: the shop's active products, each size its own choice
 * (named as the plan and the cart name it: "Product - Size"), without the lines already on the plan or
 * chosen. The server decides again from its catalogue and prices every line; these prices are only shown.
 */
import type { Product } from '@nh/shared/contracts/catalog';
import { planLineKey } from '@nh/shared/contracts/subscriptions';

export interface AddableProduct {
  /** `productId:variantSku` (empty without a size): one plan line. */
  key: string;
  productId: number;
  variantSku: string | null;
  name: string;
  /** Unit price before the plan's discount, two decimals. */
  price: string;
}

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

/** A plan line as the shop sells it today: its unit price (its size's) and whether it is out of stock. */
export interface CataloguePrice {
  price: string;
  outOfStock: boolean;
}

/**
 * Today's catalogue price of a line the plan keeps, as the server prices it on saving (the size's price
 * for a line with a size, else the product's); null when the shop no longer sells it (not listed, or its
 * size gone): the server then only lets it be removed.
 */
export function cataloguePriceOf(products: readonly Product[], line: { productId: number; variantSku: string | null }): CataloguePrice | null {
  const product = products.find((p) => p.id === line.productId);
  if (!product || (product.status !== 'active' && product.status !== 'out_of_stock')) return null;
  const variant = line.variantSku === null ? null : product.variants.find((v) => v.sku === line.variantSku);
  if (variant === undefined) return null;
  return { price: variant ? variant.price : product.price, outOfStock: product.status === 'out_of_stock' };
}
