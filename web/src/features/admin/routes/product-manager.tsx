import { formatPrice } from '@nh/shared';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import type { Product } from '@nh/shared/contracts/catalog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, deleteProduct, listAdminProducts } from '../api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate, useCan } from '../components/role-gate';

const STATUS_BADGE: Record<Product['status'], { label: string; variant: 'default' | 'outline' | 'warning' }> = {
  active: { label: 'Active', variant: 'default' },
  inactive: { label: 'Inactive', variant: 'outline' },
  out_of_stock: { label: 'Out of Stock', variant: 'warning' },
};

function ProductTable() {
  const queryClient = useQueryClient();
  const products = useQuery({ queryKey: adminKeys.products, queryFn: listAdminProducts });
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

  if (products.isPending) return <p className="text-stone-600">Loading products...</p>;
  if (products.isError) return <p className="text-red-700">Failed to load products.</p>;

  return (
    <>
      <Card>
        <CardContent className="overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
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
              {products.data.map((product) => (
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

      <Dialog open={toDelete !== null} onOpenChange={(open) => !open && !remove.isPending && setToDelete(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete product?</DialogTitle>
            <DialogDescription>
              {toDelete?.name} will be removed from the shop with its reviews. Past orders keep their own copy of the line. This cannot be undone.
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

/** /admin-products: every product (inactive ones too), with create, edit and delete. */
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
        <ProductTable />
      </RoleGate>
    </AdminPage>
  );
}
