import { formatCents } from '@nh/shared/money';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { productsQuery } from '@/lib/catalog-queries';
import { lowestPriceCents, toCatalogProduct, validPrice } from '@/features/catalog/product-model';
import { mainProductImage } from '@/lib/product-images';

/**
 * Header search (the spec leaves its behaviour open): a dialog that filters the catalogue by name,
 * category and short description in the browser, from the same GET /api/products the shop uses.
 */
export default function SearchDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [term, setTerm] = useState('');
  const { data, isLoading } = useQuery({ ...productsQuery, enabled: open });
  const results = useMemo(() => {
    const needle = term.trim().toLowerCase();
    if (!needle || !data) return [];
    return data
      .map(toCatalogProduct)
      .filter((p) => [p.name, p.category?.name ?? '', p.shortDescription ?? ''].some((text) => text.toLowerCase().includes(needle)))
      .slice(0, 8);
  }, [data, term]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="top-24 max-w-xl translate-y-0 sm:top-28">
        <DialogTitle>Search products</DialogTitle>
        <DialogDescription className="sr-only">Type a product name; matching products are listed below.</DialogDescription>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
          <Input
            autoFocus
            type="search"
            aria-label="Search products"
            placeholder="Try “laundry” or “Surfy”"
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            className="pl-9"
          />
        </div>
        <div aria-live="polite" className="min-h-10">
          {isLoading && term && <p className="text-sm text-stone-500">Searching…</p>}
          {!isLoading && term.trim() && results.length === 0 && (
            <p className="text-sm text-stone-500">No products match “{term.trim()}”.</p>
          )}
          <ul className="divide-y divide-stone-100">
            {results.map((p) => {
              const price = lowestPriceCents(p);
              return (
                <li key={p.id}>
                  <Link
                    to={`/product/${p.slug}`}
                    onClick={() => onOpenChange(false)}
                    className="flex items-center gap-3 rounded-lg p-2 hover:bg-brand-100/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                  >
                    <img src={mainProductImage(p.images)} alt="" className="size-12 rounded-md bg-cream object-contain" />
                    <span className="flex-1">
                      <span className="block text-sm font-semibold text-brand-900">{p.name}</span>
                      <span className="block text-xs text-stone-500">{p.category?.name}</span>
                    </span>
                    <span className="text-sm font-semibold text-stone-700">{validPrice(price) ? formatCents(price) : 'Price TBA'}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      </DialogContent>
    </Dialog>
  );
}
