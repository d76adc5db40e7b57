import type { CatalogProduct } from '../../product-model';
import { ProductCard } from '../product-card';

/** "You May Also Like": the related products as cards (nothing when there are none). */
export function RelatedProductsSection({ products }: { products: CatalogProduct[] }) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="related-heading" className="mt-16">
      <h2 id="related-heading" className="text-2xl font-bold tracking-tight text-brand-900">
        You May Also Like
      </h2>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {products.map((p) => (
          <li key={p.id}>
            <ProductCard product={p} className="h-full" />
          </li>
        ))}
      </ul>
    </section>
  );
}
