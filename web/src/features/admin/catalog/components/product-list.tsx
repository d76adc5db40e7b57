/** The Product Manager's list: search and status (in the URL), the paged table of every product (inactive ones too), delete. */
import { formatPrice } from '@nh/shared';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { PRODUCT_STATUSES, type Product, type ProductStatus } from '@nh/shared/contracts/catalog';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Pencil, Search, Trash2 } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { columnsOf, DataTable } from '../../ui/data-table';
import { filterParams } from '../../ui/filter-params';
import { Pager } from '../../ui/pager';
import { deleteProduct, PRODUCTS_PAGE_SIZE, productQueries } from '../api';

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

export function productFiltersOf(params: URLSearchParams): ProductFilters {
  const status = params.get('status') ?? '';
  const offset = Number.parseInt(params.get('offset') ?? '0', 10);
  return {
    search: params.get('search') ?? '',
    status: (PRODUCT_STATUSES as readonly string[]).includes(status) ? (status as ProductStatus) : '',
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

export const productParamsOf = (filters: ProductFilters): URLSearchParams => filterParams(['search', 'status'], filters);

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

const column = columnsOf<Product>();

/** The columns; Delete asks first (`onDelete` opens the confirmation). */
const productColumns = (onDelete: (product: Product) => void) => [
  column.display({
    id: 'name',
    header: 'Name',
    cell: ({ row: { original: product } }) => (
      <>
        <div className="font-medium text-stone-900">{product.name}</div>
        <div className="text-xs text-stone-500">{product.slug}</div>
      </>
    ),
  }),
  column.display({ id: 'category', header: 'Category', cell: ({ row }) => row.original.category?.name ?? '—' }),
  column.display({ id: 'price', header: 'Price', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => formatPrice(row.original.price) }),
  column.display({ id: 'inventory', header: 'Inventory', meta: { className: 'text-right tabular-nums' }, cell: ({ row }) => row.original.inventory }),
  column.display({
    id: 'status',
    header: 'Status',
    cell: ({ row }) => <Badge variant={STATUS_BADGE[row.original.status].variant}>{STATUS_BADGE[row.original.status].label}</Badge>,
  }),
  column.display({
    id: 'actions',
    header: 'Actions',
    meta: { className: 'text-right' },
    cell: ({ row: { original: product } }) => (
      <div className="flex justify-end gap-2">
        <Button variant="outline" size="sm" asChild>
          <Link to={`/admin-products/${product.slug}/edit`} aria-label={`Edit ${product.name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Link>
        </Button>
        <Button variant="destructive" size="sm" onClick={() => onDelete(product)} aria-label={`Delete ${product.name}`}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    ),
  }),
];

export function ProductList({ filters, onApply }: { filters: ProductFilters; onApply: (filters: ProductFilters) => void }) {
  const queryClient = useQueryClient();
  const query = { search: filters.search, status: filters.status || undefined, limit: PRODUCTS_PAGE_SIZE, offset: filters.offset };
  const products = useQuery({ ...productQueries.page(query), placeholderData: keepPreviousData });
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const columns = useMemo(() => productColumns(setToDelete), []);
  const remove = useMutation({
    mutationFn: (product: Product) => deleteProduct(product.id),
    onSuccess: () => {
      toast({ title: ADMIN_MESSAGES.productDeleted });
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: productQueries.all });
    },
    onError: (error) => {
      toast({ title: ADMIN_MESSAGES.productDeleteFailed, description: serverMessageOf(error), variant: 'destructive' });
      setToDelete(null);
    },
  });

  const form = <ProductFilterForm key={productParamsOf({ ...filters, offset: 0 }).toString()} applied={filters} onApply={onApply} />;
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
            <DataTable
              columns={columns}
              data={rows}
              rowId={(product) => String(product.id)}
              busy={products.isFetching}
              rowProps={({ original }) => ({ 'data-testid': `product-row-${original.slug}` })}
            />
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

