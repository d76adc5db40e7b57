import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { adminKeys, createProduct } from '../api';
import { AdminPage } from '../components/admin-frame';
import { RoleGate } from '../components/role-gate';
import { BackToProducts, ProductForm } from '../components/product-form';
import { emptyProductForm, formToPayload, type ProductFormValues } from '../product-form-model';

function CreateProduct() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (values: ProductFormValues) => createProduct(formToPayload(values, 'create')),
    onSuccess: async () => {
      toast({ title: ADMIN_MESSAGES.productCreated });
      await queryClient.invalidateQueries({ queryKey: adminKeys.products });
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
    <AdminPage title="Create Product">
      <BackToProducts />
      <RoleGate permission="catalog.manage">
        <CreateProduct />
      </RoleGate>
    </AdminPage>
  );
}
