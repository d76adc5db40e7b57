import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import type { Product } from '@nh/shared/contracts/catalog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { EntityHistory } from '../../audit/components/entity-history';
import { AdminPage } from '../../shell/admin-page';
import { useCan } from '../../shell/role-gate';
import { productQueries, updateProduct } from '../api';
import { InventoryPanel } from '../components/inventory-panel';
import { BackToProducts, ProductForm } from '../components/product-form';
import { formToPayload, productToForm, type ProductFormValues } from '../product-form-model';

function EditProduct({ product }: { product: Product }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canReadAudit = useCan('audit.view');
  // The form as first loaded: the product is read again after an inventory adjustment, the form is not reset.
  const [loaded] = useState(() => productToForm(product));
  const update = useMutation({
    mutationFn: (values: ProductFormValues) => {
      const payload = formToPayload(values, 'edit');
      // The stock is sent only when typed here: the Inventory panel may have changed it since the form was loaded.
      if (values.inventory.trim() === loaded.inventory) delete payload.inventory;
      return updateProduct(product.id, payload);
    },
    onSuccess: async () => {
      toast({ title: ADMIN_MESSAGES.productUpdated });
      await queryClient.invalidateQueries({ queryKey: productQueries.all });
      await navigate('/admin-products');
    },
    onError: (error) => toast({ title: ADMIN_MESSAGES.productUpdateFailed, description: serverMessageOf(error), variant: 'destructive' }),
  });
  return (
    <div className="grid gap-6">
      <ProductForm mode="edit" defaultValues={loaded} pending={update.isPending} onSubmit={(values) => update.mutate(values)} />
      <InventoryPanel productId={product.id} productName={product.name} />
      {canReadAudit && <EntityHistory entityType="product" entityId={String(product.id)} testId="product-history" />}
    </div>
  );
}

/**
 * Finds the product through the admin list (searched by its slug) rather than the public
 * GET /api/products/{slug}, which hides inactive products (staff must be able to edit those too).
 */
function LoadProduct({ slug }: { slug: string }) {
  const product = useQuery(productQueries.bySlug(slug));
  if (product.isPending) return <p className="text-stone-600">Loading product...</p>;
  if (product.isError) return <p className="text-red-700">{serverMessageOf(product.error) ?? 'Failed to load the product.'}</p>;
  if (!product.data) {
    return (
      <div className="py-12 text-center">
        <p className="text-lg font-semibold text-brand-900">{ADMIN_MESSAGES.productNotFound}</p>
        <Button variant="outline" className="mt-4" asChild>
          <Link to="/admin-products">Back to Products</Link>
        </Button>
      </div>
    );
  }
  return <EditProduct key={product.data.id} product={product.data} />;
}

/** /admin-products/{slug}/edit: the product form, then the Inventory panel. */
export default function ProductEditPage() {
  usePageMeta({ title: 'Edit Product' });
  const { slug = '' } = useParams();
  return (
    <AdminPage title="Edit Product" back={<BackToProducts />}>
      <LoadProduct slug={slug} />
    </AdminPage>
  );
}
