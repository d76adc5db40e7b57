import { formatPrice } from '@nh/shared';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { PRODUCT_STATUSES, type Product, type ProductStatus } from '@nh/shared/contracts/catalog';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Pencil, Plus, Search, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, deleteProduct } from '../api';
import { catalogKeys, listProducts, PRODUCTS_PAGE_SIZE } from '../catalog/api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate, useCan } from '../components/role-gate';
import { Pager } from '../plans/pager';

const STATUS_BADGE: Record<Product['status'], { label: string; variant: 'default' | 'outline' | 'warning' }> = {
  active: { label: 'Active', variant: 'default' },
  inactive: { label: 'Inactive', variant: 'outline' },
  out_of_stock: { label: 'Out of Stock', variant: 'warning' },
};

const ANY = 'all';

interface ProductFilters {
  search: string;
  status: ProductStatus | '';
  offset: number;
}

function filtersOf(params: URLSearchParams): ProductFilters {
  const status = params.get('status') ?? '';
  const offset = Number.parseInt(params.get('offset') ?? '0', 10);
  return {
    search: params.get('search') ?? '',
    status: (PRODUCT_STATUSES as readonly string[]).includes(status) ? (status as ProductStatus) : '',
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

function paramsOf(filters: ProductFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.status) params.set('status', filters.status);
  if (filters.offset > 0) params.set('offset', String(filters.offset));
  return params;
}

/** Search as typed (sent with the button or Enter) and the status (at once). */
function ProductFilterForm({ applied, onApply }: { applied: ProductFilters; onApply: (filters: ProductFilters) => void }) {
  const ids = { search: useId(), status: useId() };
  const [search, setSearch] = useState(applied.search);
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply({ ...applied, search, offset: 0 });
  }
  return (
    <form onSubmit={submit} className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end" aria-label="Product filters">
      <div className="space-y-1.5">
        <Label htmlFor={ids.search}>Search products</Label>
        <Input
          id={ids.search}
          type="search"
          value={search}
          maxLength={200}
          placeholder="Name, slug or SKU"
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={ids.status}>Status</Label>
        <Select
          value={applied.status || ANY}
          onValueChange={(v) => onApply({ ...applied, search, status: v === ANY ? '' : (v as ProductStatus), offset: 0 })}
        >
          <SelectTrigger id={ids.status}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>Any status</SelectItem>
            {PRODUCT_STATUSES.map((status) => (
              <SelectItem key={status} value={status}>
                {STATUS_BADGE[status].label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Button type="submit">
        <Search aria-hidden="true" />
        Search
      </Button>
    </form>
  );
}

function ProductTable({ filters, onApply }: { filters: ProductFilters; onApply: (filters: ProductFilters) => void }) {
  const queryClient = useQueryClient();
  const query = { search: filters.search, status: filters.status || undefined, limit: PRODUCTS_PAGE_SIZE, offset: filters.offset };
  const products = useQuery({
    queryKey: catalogKeys.page(query),
    queryFn: () => listProducts(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const remove = useMutation({
    mutationFn: (product: Product) => deleteProduct(product.id),
    onSuccess: () => {
      toast({ title: ADMIN_MESSAGES.productDeleted });
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: adminKeys.products });
    },
    onError: (error) => {
      toast({ title: ADMIN_MESSAGES.productDeleteFailed, description: serverMessageOf(error), variant: 'destructive' });
      setToDelete(null);
    },
  });

  const form = <ProductFilterForm key={paramsOf({ ...filters, offset: 0 }).toString()} applied={filters} onApply={onApply} />;
  if (products.isPending)
    return (
      <>
        {form}
        <p className="text-stone-600">Loading products...</p>
      </>
    );
  if (products.isError)
    return (
      <>
        {form}
        <p className="text-red-700">{serverMessageOf(products.error) ?? 'Failed to load products.'}</p>
      </>
    );
  const { products: rows, total } = products.data;

  return (
    <>
      {form}
      {rows.length === 0 ? (
        <p className="py-8 text-center text-stone-600">
          {filters.search || filters.status ? 'No products match this search.' : 'No products yet.'}
        </p>
      ) : (
        <Card>
          <CardContent className="overflow-x-auto p-0">
            <table className="w-full text-left text-sm" aria-busy={products.isFetching}>
              <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
                <tr>
                  <th className="px-4 py-3">Name</th>
                  <th className="px-4 py-3">Category</th>
                  <th className="px-4 py-3 text-right">Price</th>
                  <th className="px-4 py-3 text-right">Inventory</th>
                  <th className="px-4 py-3">Status</th>
                  <th className="px-4 py-3 text-right">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200">
                {rows.map((product) => (
                  <tr key={product.id} data-testid={`product-row-${product.slug}`}>
                    <td className="px-4 py-3">
                      <div className="font-medium text-stone-900">{product.name}</div>
                      <div className="text-xs text-stone-500">{product.slug}</div>
                    </td>
                    <td className="px-4 py-3">{product.category?.name ?? '—'}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatPrice(product.price)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{product.inventory}</td>
                    <td className="px-4 py-3">
                      <Badge variant={STATUS_BADGE[product.status].variant}>{STATUS_BADGE[product.status].label}</Badge>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex justify-end gap-2">
                        <Button variant="outline" size="sm" asChild>
                          <Link to={`/admin-products/${product.slug}/edit`} aria-label={`Edit ${product.name}`}>
                            <Pencil aria-hidden="true" />
                            Edit
                          </Link>
                        </Button>
                        <Button variant="destructive" size="sm" onClick={() => setToDelete(product)} aria-label={`Delete ${product.name}`}>
                          <Trash2 aria-hidden="true" />
                          Delete
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      )}
      {rows.length > 0 && (
        <div className="mt-4">
          <Pager
            offset={filters.offset}
            shown={rows.length}
            total={total}
            pageSize={PRODUCTS_PAGE_SIZE}
            onPage={(offset) => onApply({ ...filters, offset })}
          />
        </div>
      )}

      <Dialog open={toDelete !== null} onOpenChange={(open) => !open && !remove.isPending && setToDelete(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete product?</DialogTitle>
            <DialogDescription>
              {toDelete?.name} will be removed from the shop with its reviews. Past orders keep their own copy of the line. This cannot be
              undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setToDelete(null)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => toDelete && remove.mutate(toDelete)} disabled={remove.isPending}>
              {remove.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

function ProductScreen() {
  const [params, setParams] = useSearchParams();
  return <ProductTable filters={filtersOf(params)} onApply={(filters) => setParams(paramsOf(filters))} />;
}

/** /admin-products: every product (inactive ones too), searched and paged, with create, edit and delete. */
export default function ProductManagerPage() {
  usePageMeta({ title: 'Product Manager' });
  const allowed = useCan('catalog.manage');
  return (
    <AdminPage
      title="Product Manager"
      actions={
        allowed && (
          <Button asChild>
            <Link to="/admin-products/create">
              <Plus aria-hidden="true" />
              Create New Product
            </Link>
          </Button>
        )
      }
    >
      <RoleGate permission="catalog.manage">
        <ProductScreen />
      </RoleGate>
    </AdminPage>
  );
}
