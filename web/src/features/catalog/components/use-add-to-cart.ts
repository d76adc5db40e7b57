import { toast } from '@/components/ui/use-toast';
import { useCart } from '@/stores/cart-context';
import { cartLineName, unitPriceCents, validPrice, type CatalogProduct, type CatalogVariant } from '../product-model';

/** Adds a product (and chosen variant) to the cart when it has a valid price; optional quick-add toast. */
export function useAddToCart() {
  const { addItem } = useCart();
  return (product: CatalogProduct, variant: CatalogVariant | null, quantity = 1, options: { toast?: boolean } = {}) => {
    const price = unitPriceCents(product, variant);
    if (!validPrice(price) || quantity < 1) return false;
    addItem(
      {
        productId: product.id,
        variantSku: variant?.sku ?? null,
        name: cartLineName(product, variant),
        price,
        image: product.images[0],
        slug: product.slug,
      },
      quantity,
    );
    if (options.toast) toast({ title: 'Added to cart', description: `${product.name} added to your cart.` });
    return true;
  };
}
