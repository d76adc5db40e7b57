import { formatCents } from '@nh/shared/money';
import { Link } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth';
import { formatLongDate } from '@/lib/format-date';
import { usePageMeta } from '@/lib/use-page-meta';
import { useOrders, useStoreCredit } from '../api';
import { AccountPage, Card, ErrorNote, linkClass } from '../components/account-page';
import { OrderStatus } from '../components/order-details';
import { SignInPrompt } from '../components/sign-in-prompt';
import { StoreCreditSection } from '../components/store-credit-section';
import { ChangeEmail } from '../components/change-email';

/** /account/orders: the signed-in shopper's orders, newest first. */
export default function OrdersPage() {
  usePageMeta({ title: 'My Orders' });
  const auth = useAuth();
  const orders = useOrders(auth.isAuthenticated);
  const credit = useStoreCredit(auth.isAuthenticated);

  if (auth.isLoading || (auth.isAuthenticated && orders.isPending)) {
    return (
      <AccountPage title="My Orders" wide>
        <div aria-busy="true" className="space-y-3">
          <p role="status" className="sr-only">
            Loading your orders...
          </p>
          <Skeleton className="h-20 w-full rounded-2xl" />
          <Skeleton className="h-20 w-full rounded-2xl" />
        </div>
      </AccountPage>
    );
  }
  if (!auth.isAuthenticated || orders.data === null) {
    return (
      <AccountPage title="My Orders">
        <SignInPrompt returnTo="/account/orders" />
      </AccountPage>
    );
  }
  if (!orders.data) {
    return (
      <AccountPage title="My Orders" wide>
        <ErrorNote>Your orders could not be loaded. Please try again.</ErrorNote>
      </AccountPage>
    );
  }
  return (
    <AccountPage title="My Orders" wide>
      {credit.data && <StoreCreditSection credit={credit.data} />}
      {auth.user && <ChangeEmail currentEmail={auth.user.email} />}
      {orders.data.length === 0 ? (
        <Card>
          <p className="text-stone-700">
            You have no orders yet.{' '}
            <Link to="/shop" className={linkClass}>
              Browse the shop
            </Link>
          </p>
        </Card>
      ) : (
        <ul className="space-y-3" aria-label="Orders">
          {orders.data.map((order) => (
            <li key={order.id}>
              <Link
                to={`/account/orders/${order.id}`}
                className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-5 shadow-sm transition hover:shadow-md focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span>
                  <span className="block font-semibold text-brand-900">Order #{order.number}</span>
                  <span className="block text-sm text-stone-600">
                    {formatLongDate(order.placedAt)} · {order.itemCount} {order.itemCount === 1 ? 'item' : 'items'}
                  </span>
                  {order.refunded > 0 && (
                    <span className="block text-sm text-stone-600">
                      {order.refunded >= order.total ? 'Refunded in full' : `${formatCents(order.refunded)} refunded · ${formatCents(order.total - order.refunded)} left`}
                    </span>
                  )}
                </span>
                <span className="flex items-center gap-4">
                  <OrderStatus status={order.status} />
                  <span className="font-semibold text-brand-900">{formatCents(order.total)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </AccountPage>
  );
}
