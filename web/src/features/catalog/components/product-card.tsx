import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { mainProductImage, showFallbackImage } from '@/lib/product-images';
import { cn } from '@/lib/utils';
import { priceDisplay, unitPriceCents, validPrice, type CatalogProduct } from '../product-model';
import { ProductBadges } from './product-badges';
import { StarRating } from './star-rating';
import { useAddToCart } from './use-add-to-cart';

/**
 * Listing card: picture, badges, the product's rating (its visible reviews' average and count, as its page
 * shows them; nothing without reviews), price ('From $min' with sizes), Quick Add on hover.
 */
export function ProductCard({ product, className }: { product: CatalogProduct; className?: string }) {
  const [variantSku, setVariantSku] = useState(product.variants[0]?.sku ?? null);
  const variant = product.variants.find((v) => v.sku === variantSku) ?? product.variants[0] ?? null;
  const addToCart = useAddToCart();
  const sizeId = useId();
  const price = unitPriceCents(product, variant);
  const purchasable = validPrice(price);
  const soldOut = product.inventory <= 0 || product.status === 'out_of_stock';

  return (
    <article
      data-testid="product-card"
      className={cn(
        'group relative flex flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-lg',
        className,
      )}
    >
      <Link
        to={`/product/${product.slug}`}
        className="relative block aspect-square overflow-hidden bg-cream focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500"
      >
        <img
          src={mainProductImage(product.images)}
          onError={(e) => showFallbackImage(e)}
          alt={product.name}
          loading="lazy"
          className="size-full object-contain p-4 transition duration-300 group-hover:scale-105"
        />
        <ProductBadges product={product} className="absolute left-2 top-2 flex flex-wrap gap-1" />
      </Link>
      <div className="flex flex-1 flex-col gap-1.5 p-3 sm:p-4">
        <p className="text-[11px] font-semibold uppercase tracking-wider text-brand-700">{product.category?.name}</p>
        <h3 className="line-clamp-2 text-sm font-semibold leading-snug text-brand-900 sm:text-base">
          <Link to={`/product/${product.slug}`} className="hover:underline">
            {product.name}
          </Link>
        </h3>
        {product.rating && (
          <div className="flex items-center gap-1 text-xs text-stone-600" data-testid="product-card-rating">
            <StarRating
              rating={product.rating.average}
              label={`Rated ${product.rating.average.toFixed(1)} out of 5 from ${product.rating.count} review${product.rating.count === 1 ? '' : 's'}`}
            />
            <span aria-hidden="true">
              {product.rating.average.toFixed(1)} ({product.rating.count})
            </span>
          </div>
        )}
        <p className="text-base font-bold text-stone-900" data-testid="product-card-price">
          {priceDisplay(product)}
        </p>
        {product.variants.length > 1 && (
          <div>
            <label htmlFor={sizeId} className="sr-only">
              Size of {product.name}
            </label>
            <select
              id={sizeId}
              value={variant?.sku ?? ''}
              onChange={(e) => setVariantSku(e.target.value)}
              className="h-9 w-full rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              {product.variants.map((v) => (
                <option key={v.sku} value={v.sku}>
                  {v.label}
                  {validPrice(v.priceCents) ? ` – $${(v.priceCents / 100).toFixed(2)}` : ''}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="mt-auto pt-2">
          {purchasable ? (
            <Button
              size="sm"
              className="w-full transition-opacity md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100 [@media(hover:none)]:opacity-100"
              disabled={soldOut}
              onClick={() => addToCart(product, variant, 1, { toast: true })}
              aria-label={soldOut ? `${product.name} is out of stock` : `Quick add ${product.name} to cart`}
            >
              {soldOut ? (
                'Out of Stock'
              ) : (
                <>
                  <Plus aria-hidden="true" /> Quick Add
                </>
              )}
            </Button>
          ) : (
            <Button size="sm" variant="secondary" className="w-full" disabled>
              Coming Soon
            </Button>
          )}
        </div>
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-stone-200 bg-white" aria-hidden="true">
      <div className="aspect-square animate-pulse bg-stone-200/80" />
      <div className="space-y-2 p-4">
        <div className="h-3 w-1/3 animate-pulse rounded bg-stone-200" />
        <div className="h-4 w-3/4 animate-pulse rounded bg-stone-200" />
        <div className="h-4 w-1/4 animate-pulse rounded bg-stone-200" />
      </div>
    </div>
  );
}
