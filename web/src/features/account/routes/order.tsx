import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth';
import { ApiError, serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { useOrder } from '../api';
import { AccountPage, Card, ErrorNote, linkClass } from '../components/account-page';
import { OrderDetails } from '../components/order-details';
import { ReportProblem } from '../components/report-problem';
import { SignInPrompt } from '../components/sign-in-prompt';

const backToOrders = (
  <Link to="/account/orders" className={`mb-6 inline-flex items-center gap-1 ${linkClass}`}>
    <ArrowLeft className="size-4" aria-hidden="true" />
    Back to My Orders
  </Link>
);

/** /account/orders/:id: one of the signed-in shopper's orders (any other order is "not found"). */
export default function OrderPage() {
  const { id = '' } = useParams();
  usePageMeta({ title: 'Order details' });
  const auth = useAuth();
  const order = useOrder(id, auth.isAuthenticated);

  if (auth.isLoading || (auth.isAuthenticated && order.isPending)) {
    return (
      <AccountPage title="Order details" wide>
        <Skeleton className="h-96 w-full rounded-3xl" aria-busy="true" />
      </AccountPage>
    );
  }
  if (!auth.isAuthenticated || (order.error instanceof ApiError && order.error.status === 401)) {
    return (
      <AccountPage title="Order details">
        <SignInPrompt returnTo={`/account/orders/${id}`} />
      </AccountPage>
    );
  }
  if (!order.data) {
    return (
      <AccountPage title="Order details" wide>
        {backToOrders}
        <ErrorNote>{serverMessageOf(order.error) ?? 'This order could not be loaded. Please try again.'}</ErrorNote>
      </AccountPage>
    );
  }
  return (
    <AccountPage title="Order details" wide>
      {backToOrders}
      <Card>
        <OrderDetails order={order.data} />
      </Card>
      <div className="mt-6">
        <ReportProblem order={order.data} guest={false} />
      </div>
    </AccountPage>
  );
}
