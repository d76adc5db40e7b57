import { Plus } from 'lucide-react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { ProductList, productFiltersOf, productParamsOf } from '../components/product-list';

/** /admin-products: every product (inactive ones too), searched and paged, with create, edit and delete. */
export default function ProductManagerPage() {
  usePageMeta({ title: 'Product Manager' });
  const [params, setParams] = useSearchParams();
  return (
    <AdminPage
      title="Product Manager"
      actions={
        <Button asChild>
          <Link to="/admin-products/create">
            <Plus aria-hidden="true" />
            Create New Product
          </Link>
        </Button>
      }
    >
      <ProductList filters={productFiltersOf(params)} onApply={(filters) => setParams(productParamsOf(filters))} />
    </AdminPage>
  );
}
