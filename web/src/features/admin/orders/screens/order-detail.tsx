import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { AdminPage } from '../../shell/admin-page';
import { orderQueries } from '../api';
import { OrderView } from '../components/order-view';
import { OrderNotes } from '../../customers/components/order-notes';

function LoadOrder({ id }: { id: string }) {
  const order = useQuery(orderQueries.order(id));
  if (order.isPending) return <p className="py-12 text-center text-stone-600">{ADMIN_MESSAGES.loadingOrder}</p>;
  if (order.isError) {
    const missing = order.error instanceof ApiError && order.error.status === 404;
    return <p className="py-12 text-center text-lg font-semibold text-brand-900">{missing ? ADMIN_MESSAGES.orderNotFound : 'Failed to load order.'}</p>;
  }
  return (
    <div className="grid gap-6">
      <OrderView order={order.data} />
      <OrderNotes orderId={order.data.id} />
    </div>
  );
}

/** /admin-orders/{id} (signed out, the admin layout shows the sign-in screen here and then this order). */
export default function OrderDetailPage() {
  usePageMeta({ title: 'Order' });
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Back to the list as it was left (its filters, sort and page), when the order was opened from it.
  const { state } = useLocation() as { state: { listSearch?: unknown } | null };
  const listSearch = typeof state?.listSearch === 'string' && state.listSearch.startsWith('?') ? state.listSearch : '';
  return (
    <AdminPage
      back={
        <Button variant="ghost" className="mb-4 -ml-3" onClick={() => void navigate(`/admin-orders${listSearch}`)}>
          <ArrowLeft aria-hidden="true" />
          Back to Orders
        </Button>
      }
    >
      <LoadOrder id={id} />
    </AdminPage>
  );
}
