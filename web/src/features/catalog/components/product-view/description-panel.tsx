import type { CatalogProduct } from '../../product-model';
import { CheckList } from './check-list';

/** The Description tab: description and uses beside benefits, how to use and cautions. */
export function DescriptionPanel({ product }: { product: CatalogProduct }) {
  return (
    <div className="grid gap-8 md:grid-cols-2">
      <div className="space-y-4">
        {product.description && <p>{product.description}</p>}
        {product.uses.length > 0 && (
          <div>
            <h3 className="font-semibold text-brand-900">Uses</h3>
            <CheckList items={product.uses} />
          </div>
        )}
      </div>
      <div className="space-y-4">
        {product.benefits.length > 0 && (
          <div>
            <h3 className="font-semibold text-brand-900">Benefits</h3>
            <CheckList items={product.benefits} />
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
  );
}
