import type { Review } from '@nh/shared/contracts/reviews';
import { useMemo } from 'react';
import { jsonForScript, productJsonLd } from '../../product-json-ld';
import type { CatalogProduct } from '../../product-model';

/** The product's schema.org JSON-LD (with its reviews) for search engines. */
export function ProductJsonLd({ product, reviews }: { product: CatalogProduct; reviews: Review[] }) {
  const jsonLd = useMemo(() => jsonForScript(productJsonLd(product, reviews, window.location.origin)), [product, reviews]);
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd }} />;
}
