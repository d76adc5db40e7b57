import type { ShopperOrder } from '@nh/shared/contracts/account';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Skeleton } from '@/components/ui/skeleton';
import { useLinkToken } from '@/lib/link-token';
import { serverMessageOf } from '@/lib/query-client';
import { usePageMeta } from '@/lib/use-page-meta';
import { fetchGuestOrder, openOrderLink } from '../api';
import { AccountPage, Card, ErrorNote, linkClass } from '../components/account-page';
import { OrderDetails } from '../components/order-details';
import { ReportProblem } from '../components/report-problem';

function Refused({ message }: { message: string }) {
  return (
    <AccountPage title="Your order">
      <div className="space-y-4">
        <ErrorNote>{message}</ErrorNote>
        <Link to="/orders/lookup" className={linkClass}>
          Look up your order again
        </Link>
      </div>
    </AccountPage>
  );
}

function Shown({ order }: { order: ShopperOrder }) {
  return (
    <AccountPage title="Your order" wide>
      <Card>
        <OrderDetails order={order} />
      </Card>
      <div className="mt-6">
        <ReportProblem order={order} guest />
      </div>
    </AccountPage>
  );
}

const loading = (
  <AccountPage title="Your order" wide>
    <Skeleton className="h-96 w-full rounded-3xl" aria-busy="true" />
  </AccountPage>
);

/**
 * /orders/view#token=…: the emailed link (the token in the fragment, which no server sees; taken out of
 * the address as soon as it is read). The page spends the token (a POST: mail scanners fetching the
 * address do not) and puts the order's id in the address instead, so a reload reads it through this
 * browser's hour of access (/orders/view?order=…) and a second click on the link is refused.
 */
export default function OrderViewPage() {
  usePageMeta({ title: 'Your order' });
  const token = useLinkToken();
  const [params, setParams] = useSearchParams();
  const orderId = params.get('order');
  const open = useMutation({
    mutationFn: openOrderLink,
    onSuccess: (order) => setParams({ order: order.id }, { replace: true }),
  });
  const started = useRef(false);
  useEffect(() => {
    if (token && !started.current) {
      started.current = true;
      open.mutate(token);
    }
  }, [token, open]);
  const guest = useQuery({ queryKey: ['/api/orders/guest', orderId], queryFn: () => fetchGuestOrder(orderId!), enabled: Boolean(orderId) && !open.data });

  if (open.data) return <Shown order={open.data} />;
  if (open.isError) return <Refused message={serverMessageOf(open.error) ?? 'The link could not be opened. Please try again.'} />;
  if (token) return loading;
  if (!orderId) return <Refused message="This link is incomplete. Please open the link from your email again." />;
  if (guest.data) return <Shown order={guest.data} />;
  if (guest.isError) return <Refused message={serverMessageOf(guest.error) ?? 'This order could not be loaded. Please try again.'} />;
  return loading;
}
