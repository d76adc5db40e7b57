import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import type { Product } from '@nh/shared/contracts/catalog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, listAdminProducts, updateProduct } from '../api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate } from '../components/role-gate';
import { BackToProducts, ProductForm } from '../components/product-form';
import { formToPayload, productToForm, type ProductFormValues } from '../product-form-model';

function EditProduct({ product }: { product: Product }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (values: ProductFormValues) => updateProduct(product.id, formToPayload(values, 'edit')),
    onSuccess: async () => {
      toast({ title: ADMIN_MESSAGES.productUpdated });
      await queryClient.invalidateQueries({ queryKey: adminKeys.products });
      await navigate('/admin-products');
    },
    onError: (error) => toast({ title: ADMIN_MESSAGES.productUpdateFailed, description: serverMessageOf(error), variant: 'destructive' }),
  });
  return <ProductForm mode="edit" defaultValues={productToForm(product)} pending={update.isPending} onSubmit={(values) => update.mutate(values)} />;
}

/**
 * Loads the product from the admin list rather than the public GET /api/products/{slug}, which hides
 * inactive products (staff must be able to edit those too).
 */
function LoadProduct({ slug }: { slug: string }) {
  const products = useQuery({ queryKey: adminKeys.products, queryFn: listAdminProducts });
  if (products.isPending) return <p className="text-stone-600">Loading product...</p>;
  const product = products.data?.find((p) => p.slug === slug);
  if (!product) {
    return (
      <div className="py-12 text-center">
        <p className="text-lg font-semibold text-brand-900">{ADMIN_MESSAGES.productNotFound}</p>
        <Button variant="outline" className="mt-4" asChild>
          <Link to="/admin-products">Back to Products</Link>
        </Button>
      </div>
    );
  }
  return <EditProduct key={product.id} product={product} />;
}

/** /admin-products/{slug}/edit */
export default function ProductEditPage() {
  usePageMeta({ title: 'Edit Product' });
  const { slug = '' } = useParams();
  return (
    <AdminPage title="Edit Product">
      <BackToProducts />
      <RoleGate permission="catalog.manage">
        <LoadProduct slug={slug} />
      </RoleGate>
    </AdminPage>
  );
}
