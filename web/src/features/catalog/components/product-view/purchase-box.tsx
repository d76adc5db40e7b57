import { Heart, ShoppingBag } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { useWishlist } from '@/stores/wishlist-store';
import { validPrice, type CatalogProduct, type CatalogVariant } from '../../product-model';
import { ShareMenu } from '../share-menu';
import { useAddToCart } from '../use-add-to-cart';
import { QuantityStepper } from './quantity-stepper';
import { VariantSelect } from './variant-select';

interface Props {
  product: CatalogProduct;
  variant: CatalogVariant | null;
  onVariantChange: (sku: string) => void;
  /** The chosen variant's unit price in cents. */
  price: number | null;
}

/** Size, quantity and Add to Cart; Add to Wishlist and Share beneath. */
export function PurchaseBox({ product, variant, onVariantChange, price }: Props) {
  const [quantity, setQuantity] = useState(1);
  const addToCart = useAddToCart();
  const wishlist = useWishlist();
  const inWishlist = wishlist.has(product.id);
  const purchasable = validPrice(price);
  const outOfStock = product.inventory <= 0;
  const url = typeof window === 'undefined' ? `/product/${product.slug}` : `${window.location.origin}/product/${product.slug}`;

  const onWishlist = () => {
    const added = wishlist.toggle({
      id: product.id,
      name: product.name,
      slug: product.slug,
      image: product.images[0] ?? null,
      price: price ?? null,
    });
    toast({ title: added ? 'Added to wishlist' : 'Removed from wishlist', description: product.name });
  };

  const onAdd = () => {
    if (addToCart(product, variant, quantity)) {
      toast({ title: 'Added to cart', description: `${product.name} added to your cart.` });
    }
  };

  return (
    <div className="mt-8 space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
      {product.variants.length > 0 && <VariantSelect variants={product.variants} value={variant?.sku ?? ''} onChange={onVariantChange} />}
      <div className="flex flex-wrap items-center gap-3">
        <QuantityStepper quantity={quantity} onChange={setQuantity} />
        {purchasable ? (
          <Button size="lg" className="flex-1" disabled={outOfStock} onClick={onAdd}>
            <ShoppingBag aria-hidden="true" /> {outOfStock ? 'Out of Stock' : 'Add to Cart'}
          </Button>
        ) : (
          <Button size="lg" variant="secondary" className="flex-1" disabled>
            Coming Soon
          </Button>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="outline"
          size="lg"
          className={cn('flex-1 px-4', inWishlist && 'border-rose-300 text-rose-700')}
          aria-pressed={inWishlist}
          onClick={onWishlist}
        >
          <Heart className={cn(inWishlist && 'fill-rose-500 text-rose-500')} aria-hidden="true" /> {inWishlist ? 'In Wishlist' : 'Add to Wishlist'}
        </Button>
        <ShareMenu title={product.name} url={url} />
      </div>
    </div>
  );
}
