import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { CustomerDetail } from '../components/customer-detail';

/** /admin/customers/{id}: a customer's orders, plans, figures, notes, tags and timeline. */
export default function CustomerDetailPage() {
  const { id = '' } = useParams();
  usePageMeta({ title: 'Customer' });
  return (
    <AdminPage
      title="Customer"
      back={
        <Link to="/admin/customers" className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Customers
        </Link>
      }
    >
      <CustomerDetail key={id} id={id} />
    </AdminPage>
  );
}
