import {
  LIMITS,
  SHIPPING_TIMES,
  SHOP,
  STOREFRONT_FREE_SHIPPING_THRESHOLD_CENTS,
  SUBSCRIBE_AND_SAVE_PERCENT,
  EXPRESS_SHIPPING_CENTS,
  TRUST_BADGE_FREE_SHIPPING_THRESHOLD_CENTS,
  MONEY_BACK_GUARANTEE_DAYS,
} from '@nh/shared/constants';
import { formatCents, percentOf } from '@nh/shared/money';
import { useQuery } from '@tanstack/react-query';
import { Check, Heart, Leaf, Minus, Package, Plus, Rabbit, RotateCcw, ShoppingBag, Truck } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/auth';
import { useWishlist } from '@/stores/wishlist-store';
import { resolveImageKey, STARTER_KIT_DEFAULT_IMAGE } from '@/lib/product-images';
import { usePageMeta } from '@/lib/use-page-meta';
import { cn } from '@/lib/utils';
import { productQuery, productsQuery, reviewsQuery } from '../api';
import { Breadcrumb } from '../components/breadcrumb';
import { NotFoundPanel } from '../components/not-found-panel';
import { ProductBadges } from '../components/product-badges';
import { ProductCard } from '../components/product-card';
import { ProductGallery } from '../components/product-gallery';
import { ReviewsSection } from '../components/reviews-section';
import { ShareMenu } from '../components/share-menu';
import { StarRating } from '../components/star-rating';
import { useAddToCart } from '../components/use-add-to-cart';
import { jsonForScript, productJsonLd } from '../product-json-ld';
import { toCatalogProduct, unitPriceCents, validPrice, type CatalogProduct } from '../product-model';
import { relatedProducts } from '../related-products';
import { reviewSummary } from '../review-summary';

const dollars = (cents: number) => `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;

function ProductSkeleton() {
  return (
    <div
      className="mx-auto grid max-w-7xl gap-10 px-4 pb-16 pt-28 sm:px-6 md:grid-cols-2 lg:px-8"
      aria-busy="true"
      aria-label="Loading product"
    >
      <Skeleton className="aspect-square w-full rounded-3xl" />
      <div className="space-y-4">
        <Skeleton className="h-6 w-24" />
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-6 w-32" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    </div>
  );
}

function List({ items }: { items: string[] }) {
  return (
    <ul className="mt-2 space-y-1.5">
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <Check className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

function KitContents({ product, all }: { product: CatalogProduct; all: CatalogProduct[] }) {
  const included = product.kitContents.map((slug) => ({ slug, product: all.find((p) => p.slug === slug) }));
  const kitImage =
    resolveImageKey(product.images[0]) ??
    included.map((i) => resolveImageKey(i.product?.images[0])).find(Boolean) ??
    STARTER_KIT_DEFAULT_IMAGE;
  return (
    <section
      aria-labelledby="kit-heading"
      className="grid items-center gap-8 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200 md:grid-cols-[16rem_1fr] md:p-10"
    >
      <img
        src={kitImage}
        alt={`${product.name} contents`}
        className="mx-auto aspect-square w-48 rounded-2xl bg-cream object-contain p-4 md:w-64"
      />
      <div>
        <Badge>Starter Kit</Badge>
        <h2 id="kit-heading" className="mt-3 text-2xl font-bold text-brand-900">
          What's Included
        </h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          {included.map(({ slug, product: item }) => (
            <li key={slug} className="flex items-center gap-3">
              <img
                src={resolveImageKey(item?.images[0]) ?? STARTER_KIT_DEFAULT_IMAGE}
                alt=""
                className="size-12 rounded-lg bg-cream object-contain"
              />
              {item ? (
                <Link to={`/product/${item.slug}`} className="font-medium text-brand-900 hover:underline">
                  {item.name}
                </Link>
              ) : (
                <span className="font-medium text-stone-700">{slug.replace(/-/g, ' ')}</span>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function ProductView({ product, all }: { product: CatalogProduct; all: CatalogProduct[] }) {
  const [params] = useSearchParams();
  const orderId = params.get('orderId');
  const { user } = useAuth();
  const [variantSku, setVariantSku] = useState<string | null>(product.variants[0]?.sku ?? null);
  const variant = product.variants.find((v) => v.sku === variantSku) ?? product.variants[0] ?? null;
  const [quantity, setQuantity] = useState(1);
  const addToCart = useAddToCart();
  const wishlist = useWishlist();
  const inWishlist = wishlist.has(product.id);
  const reviews = useQuery(reviewsQuery(product.id));
  const reviewList = useMemo(() => reviews.data ?? [], [reviews.data]);
  const summary = reviewSummary(reviewList);

  const price = unitPriceCents(product, variant);
  const purchasable = validPrice(price);
  const outOfStock = product.inventory <= 0;
  const subscriptionPrice = purchasable ? price - percentOf(price, SUBSCRIBE_AND_SAVE_PERCENT * 100) : null;
  const compareAt = product.compareAtPrice ? Math.round(Number(product.compareAtPrice) * 100) : null;
  const benefits = (product.benefits.length > 0 ? product.benefits : product.features).slice(0, LIMITS.keyBenefits);
  const related = relatedProducts(all, product, LIMITS.recommendations);
  const url = typeof window === 'undefined' ? `/product/${product.slug}` : `${window.location.origin}/product/${product.slug}`;
  const jsonLd = useMemo(() => jsonForScript(productJsonLd(product, reviewList, window.location.origin)), [product, reviewList]);

  usePageMeta({
    title: `${product.name} | ${SHOP.name}`,
    description: product.shortDescription ?? product.description ?? undefined,
    canonical: `/product/${product.slug}`,
  });

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
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd }} />
      <div className="mx-auto max-w-7xl px-4 pb-16 pt-24 sm:px-6 md:pt-28 lg:px-8">
        <Breadcrumb
          className="mb-6"
          items={[
            { label: 'Home', to: '/' },
            { label: 'Shop', to: '/shop' },
            ...(product.category ? [{ label: product.category.name, to: `/category/${product.category.slug}` }] : []),
            { label: product.name },
          ]}
        />
        <div className="grid gap-10 md:grid-cols-2 lg:gap-16">
          <ProductGallery images={product.images} name={product.name} />
          <div>
            <ProductBadges product={product} className="mb-3 flex flex-wrap gap-1.5" />
            <h1 className="text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">{product.name}</h1>
            <p className="mt-2 flex items-center gap-2 text-sm text-stone-600">
              <StarRating rating={summary.average} size="md" />
              <span>
                {summary.average.toFixed(1)} ({summary.total} review{summary.total === 1 ? '' : 's'})
              </span>
            </p>
            <div className="mt-5 flex items-baseline gap-3">
              <span className="text-3xl font-bold text-stone-900" data-testid="product-price">
                {purchasable ? formatCents(price) : 'Price TBA'}
              </span>
              {purchasable && compareAt !== null && compareAt > price && (
                <span className="text-lg text-stone-400 line-through">{formatCents(compareAt)}</span>
              )}
            </div>
            {subscriptionPrice !== null && (
              <p
                className="mt-2 inline-flex items-center gap-2 rounded-full bg-brand-100 px-3 py-1 text-sm text-brand-900"
                data-testid="subscription-price"
              >
                <RotateCcw className="size-4" aria-hidden="true" /> Subscribe &amp; Save: <strong>{formatCents(subscriptionPrice)}</strong>{' '}
                ({SUBSCRIBE_AND_SAVE_PERCENT}% off)
              </p>
            )}
            {product.shortDescription && <p className="mt-5 text-lg leading-relaxed text-stone-700">{product.shortDescription}</p>}

            {benefits.length > 0 && (
              <ul className="mt-6 grid gap-2 sm:grid-cols-2" aria-label="Key benefits">
                {benefits.map((b) => (
                  <li key={b} className="flex gap-2 text-sm text-stone-700">
                    <Leaf className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" /> {b}
                  </li>
                ))}
              </ul>
            )}

            <div className="mt-8 space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
              {product.variants.length > 0 && (
                <div className="space-y-2">
                  <label id="choose-size-label" className="text-sm font-medium text-stone-800">
                    Choose Size
                  </label>
                  <Select value={variant?.sku ?? ''} onValueChange={setVariantSku}>
                    <SelectTrigger aria-labelledby="choose-size-label" data-testid="variant-select">
                      <SelectValue placeholder="Choose Size" />
                    </SelectTrigger>
                    <SelectContent>
                      {product.variants.map((v) => (
                        <SelectItem key={v.sku} value={v.sku}>
                          {v.label}
                          {validPrice(v.priceCents) ? ` – ${formatCents(v.priceCents)}` : ''}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
              )}
              <div className="flex flex-wrap items-center gap-3">
                <div className="flex items-center rounded-full border border-stone-300 bg-white" role="group" aria-label="Quantity">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label="Decrease quantity"
                    disabled={quantity <= 1}
                    onClick={() => setQuantity((q) => Math.max(1, q - 1))}
                  >
                    <Minus aria-hidden="true" />
                  </Button>
                  <span className="w-10 text-center font-semibold tabular-nums" aria-live="polite" data-testid="quantity">
                    {quantity}
                  </span>
                  <Button variant="ghost" size="icon" aria-label="Increase quantity" onClick={() => setQuantity((q) => q + 1)}>
                    <Plus aria-hidden="true" />
                  </Button>
                </div>
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
                  <Heart className={cn(inWishlist && 'fill-rose-500 text-rose-500')} aria-hidden="true" />{' '}
                  {inWishlist ? 'In Wishlist' : 'Add to Wishlist'}
                </Button>
                <ShareMenu title={product.name} url={url} />
              </div>
            </div>

            <ul className="mt-6 grid grid-cols-2 gap-3 text-sm text-stone-700" aria-label="Our promises">
              <li className="flex items-center gap-2">
                <RotateCcw className="size-4 text-brand-700" aria-hidden="true" /> {MONEY_BACK_GUARANTEE_DAYS}-Day Guarantee
              </li>
              <li className="flex items-center gap-2">
                <Truck className="size-4 text-brand-700" aria-hidden="true" /> Free Shipping on orders over{' '}
                {dollars(TRUST_BADGE_FREE_SHIPPING_THRESHOLD_CENTS)}
              </li>
              <li className="flex items-center gap-2">
                <Leaf className="size-4 text-brand-700" aria-hidden="true" /> 100% Natural
              </li>
              <li className="flex items-center gap-2">
                <Rabbit className="size-4 text-brand-700" aria-hidden="true" /> Cruelty Free
              </li>
            </ul>
          </div>
        </div>

        {product.isStarterKit && (
          <div className="mt-16">
            <KitContents product={product} all={all} />
          </div>
        )}

        <Tabs defaultValue="description" className="mt-16">
          <TabsList>
            <TabsTrigger value="description">Description</TabsTrigger>
            <TabsTrigger value="ingredients">Ingredients</TabsTrigger>
            <TabsTrigger value="reviews">Reviews ({reviewList.length})</TabsTrigger>
            <TabsTrigger value="shipping">Shipping</TabsTrigger>
          </TabsList>
          <TabsContent
            value="description"
            className="rounded-2xl bg-white p-6 leading-relaxed text-stone-700 shadow-sm ring-1 ring-stone-200 md:p-8"
          >
            <div className="grid gap-8 md:grid-cols-2">
              <div className="space-y-4">
                {product.description && <p>{product.description}</p>}
                {product.uses.length > 0 && (
                  <div>
                    <h3 className="font-semibold text-brand-900">Uses</h3>
                    <List items={product.uses} />
                  </div>
                )}
              </div>
              <div className="space-y-4">
                {product.benefits.length > 0 && (
                  <div>
                    <h3 className="font-semibold text-brand-900">Benefits</h3>
                    <List items={product.benefits} />
                  </div>
                )}
                {product.instructions && (
                  <div>
                    <h3 className="font-semibold text-brand-900">How to Use</h3>
                    <p className="mt-2">{product.instructions}</p>
                  </div>
                )}
                {product.cautions && (
                  <div>
                    <h3 className="font-semibold text-brand-900">Cautions</h3>
                    <p className="mt-2">{product.cautions}</p>
                  </div>
                )}
              </div>
            </div>
          </TabsContent>
          <TabsContent value="ingredients" className="rounded-2xl bg-white p-6 text-stone-700 shadow-sm ring-1 ring-stone-200 md:p-8">
            {product.ingredients.length > 0 ? <List items={product.ingredients} /> : <p>Full ingredient list coming soon.</p>}
            <p className="mt-4 text-sm">
              See every ingredient's EWG safety rating on our{' '}
              <Link to="/ingredients" className="font-semibold text-brand-700 underline">
                ingredients page
              </Link>
              .
            </p>
          </TabsContent>
          <TabsContent value="reviews">
            <ReviewsSection
              productId={product.id}
              reviews={reviewList}
              isLoading={reviews.isLoading}
              orderId={orderId}
              defaultEmail={user?.email}
            />
          </TabsContent>
          <TabsContent value="shipping" className="rounded-2xl bg-white p-6 text-stone-700 shadow-sm ring-1 ring-stone-200 md:p-8">
            <ul className="space-y-4">
              <li className="flex gap-3">
                <Truck className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
                <span>
                  <strong className="text-brand-900">Standard Shipping</strong>: {SHIPPING_TIMES.standard}, free on orders of{' '}
                  {dollars(STOREFRONT_FREE_SHIPPING_THRESHOLD_CENTS)} or more
                </span>
              </li>
              <li className="flex gap-3">
                <Package className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
                <span>
                  <strong className="text-brand-900">Express Shipping</strong>: {SHIPPING_TIMES.express} at{' '}
                  {formatCents(EXPRESS_SHIPPING_CENTS)}
                </span>
              </li>
            </ul>
          </TabsContent>
        </Tabs>

        {related.length > 0 && (
          <section aria-labelledby="related-heading" className="mt-16">
            <h2 id="related-heading" className="text-2xl font-bold tracking-tight text-brand-900">
              You May Also Like
            </h2>
            <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
              {related.map((p) => (
                <li key={p.id}>
                  <ProductCard product={p} className="h-full" />
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}

export default function ProductPage() {
  const slug = useParams().slug ?? '';
  const product = useQuery(productQuery(slug));
  const all = useQuery(productsQuery);
  const catalog = useMemo(() => (all.data ?? []).map(toCatalogProduct), [all.data]);
  const current = useMemo(() => (product.data ? toCatalogProduct(product.data) : null), [product.data]);

  if (product.isLoading) return <ProductSkeleton />;
  if (!current) return <ProductNotFound />;
  // Remount per product so the chosen variant and quantity reset when navigating between products.
  return <ProductView key={current.id} product={current} all={catalog} />;
}

function ProductNotFound() {
  usePageMeta({ title: 'Product Not Found' });
  return <NotFoundPanel title="Product Not Found" message="The product you're looking for doesn't exist." />;
}
