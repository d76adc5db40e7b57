/**
 * /checkout/complete/:orderId (issue 22): the end of checkout. Names the order, what was bought and
 * paid, where it goes and when it should arrive, and for Subscribe & Save the plan's next date and
 * where to manage it. A reload shows it again: a signed-in shopper reads their own order; a guest's
 * browser was given the order link's hour with it when it paid (the API's checkout route). Composes
 * the account feature's order view with the subscriptions feature's plan list, so it lives here.
 */
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { fetchGuestOrder, fetchOrder } from '@/features/account/api';
import { AccountPage, Card, ErrorNote, linkClass } from '@/features/account/components/account-page';
import { OrderDetails } from '@/features/account/components/order-details';
import { useSubscriptions } from '@/features/subscriptions/api';
import { useAuth } from '@/lib/auth';
import { expectedDelivery } from '@/lib/expected-delivery';
import { formatLongDate } from '@/lib/format-date';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';

const TITLE = 'Thank you for your order';

function PlanNote({ planId }: { planId: string }) {
  const plans = useSubscriptions(true);
  const plan = plans.data?.find((p) => p.id === planId);
  return (
    <section aria-labelledby="plan-next" className="rounded-2xl bg-brand-50 p-5">
      <h3 id="plan-next" className="mb-2 font-semibold text-brand-900">
        Your Subscribe &amp; Save plan
      </h3>
      {plan ? <p className="text-stone-700">Your next delivery is scheduled for {formatLongDate(new Date(plan.nextBillingDate))}.</p> : null}
      <p className="mt-2 text-stone-700">
        Skip, delay, change how often or cancel at any time in{' '}
        <Link to="/subscriptions" className={linkClass}>
          My Subscriptions
        </Link>
        .
      </p>
    </section>
  );
}

export default function OrderConfirmationRoute() {
  usePageMeta({ title: TITLE });
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const planId = params.get('plan');
  const auth = useAuth();
  const order = useQuery({
    queryKey: ['order-confirmation', orderId, auth.isAuthenticated],
    queryFn: () => (auth.isAuthenticated ? fetchOrder(orderId) : fetchGuestOrder(orderId)),
    enabled: !auth.isLoading && orderId !== '',
    retry: false,
  });

  if (auth.isLoading || order.isPending) {
    return (
      <AccountPage title={TITLE} wide>
        <Skeleton className="h-96 w-full rounded-3xl" aria-busy="true" />
      </AccountPage>
    );
  }
  if (!order.data) {
    return (
      <AccountPage title="Your order">
        <div className="space-y-4">
          <ErrorNote>{serverMessageOf(order.error) ?? 'We could not show this order here.'}</ErrorNote>
          <p className="text-stone-700">Your confirmation email has the order number and a link to the order.</p>
          <Link to={auth.isAuthenticated ? '/account/orders' : '/orders/lookup'} className={linkClass}>
            {auth.isAuthenticated ? 'See My Orders' : 'Look up your order'}
          </Link>
        </div>
      </AccountPage>
    );
  }
  const { earliest, latest } = expectedDelivery(new Date(order.data.placedAt));
  return (
    <AccountPage title={TITLE} wide>
      <div className="space-y-6">
        <p className="flex items-center gap-2 text-lg text-brand-900" role="status">
          <CheckCircle2 className="size-6" aria-hidden="true" />
          Your order #{order.data.number} is confirmed. A confirmation email is on its way.
        </p>
        <p className="text-stone-700" data-testid="expected-delivery">
          Expected delivery: {formatLongDate(earliest)} to {formatLongDate(latest)}.
        </p>
        {planId && auth.isAuthenticated ? <PlanNote planId={planId} /> : null}
        <Card>
          <OrderDetails order={order.data} />
        </Card>
        <Link to="/shop" className={linkClass}>
          Continue shopping
        </Link>
      </div>
    </AccountPage>
  );
}
