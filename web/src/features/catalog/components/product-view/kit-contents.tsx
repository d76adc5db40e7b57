import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { resolveImageKey, STARTER_KIT_DEFAULT_IMAGE } from '@/lib/product-images';
import type { CatalogProduct } from '../../product-model';

/** A starter kit's "What's Included": each product of the kit, linked when it is in the catalogue. */
export function KitContents({ product, all }: { product: CatalogProduct; all: CatalogProduct[] }) {
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
