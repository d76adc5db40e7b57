import { useSearchParams } from 'react-router-dom';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { customerFiltersOf, customerParamsOf } from '../api';
import { CustomerTable } from '../components/customer-table';

function CustomersScreen() {
  const [params, setParams] = useSearchParams();
  return <CustomerTable filters={customerFiltersOf(params)} onApply={(filters) => setParams(customerParamsOf(filters))} />;
}

/** /admin/customers (owners, managers, support): everyone who bought, subscribed or signed up. */
export default function CustomersPage() {
  usePageMeta({ title: 'Customers' });
  return (
    <AdminPage title="Customers">
      <CustomersScreen />
    </AdminPage>
  );
}
