import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { createProduct, productQueries } from '../api';
import { BackToProducts, ProductForm } from '../components/product-form';
import { emptyProductForm, formToPayload, type ProductFormValues } from '../product-form-model';

function CreateProduct() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (values: ProductFormValues) => createProduct(formToPayload(values, 'create')),
    onSuccess: async () => {
      toast({ title: ADMIN_MESSAGES.productCreated });
      await queryClient.invalidateQueries({ queryKey: productQueries.all });
      await navigate('/admin-products');
    },
    onError: (error) => toast({ title: ADMIN_MESSAGES.productCreateFailed, description: serverMessageOf(error), variant: 'destructive' }),
  });
  return <ProductForm mode="create" defaultValues={emptyProductForm} pending={create.isPending} onSubmit={(values) => create.mutate(values)} />;
}

/** /admin-products/create */
export default function ProductCreatePage() {
  usePageMeta({ title: 'Create Product' });
  return (
    <AdminPage title="Create Product" back={<BackToProducts />}>
      <CreateProduct />
    </AdminPage>
  );
}
