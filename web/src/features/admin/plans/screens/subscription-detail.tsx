import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { PlanDetail } from '../components/plan-detail';
import { shortId } from '../components/plan-words';

/** /admin/subscriptions/{id}: a plan, its billing history and orders, and the actions staff take for the customer. */
export default function SubscriptionDetailPage() {
  const { id = '' } = useParams();
  usePageMeta({ title: `Plan ${shortId(id)}` });
  return (
    <AdminPage
      title={`Plan ${shortId(id)}`}
      back={
        <Link to="/admin/subscriptions" className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Subscriptions
        </Link>
      }
    >
      <PlanDetail key={id} id={id} />
    </AdminPage>
  );
}
