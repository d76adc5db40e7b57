/**
 * What happened to an order, oldest first (POST /api/admin/orders/{id}/timeline): placed, paid, each
 * NetSuite request, each email, each staff action, refunds and voids; problems marked.
 */
import { formatOrderDate } from '@nh/shared/contracts/admin';
import type { TimelineEvent, TimelineKind } from '@nh/shared/contracts/order-timeline';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { AlertTriangle, CreditCard, Mail, RefreshCw, ShoppingBag, Undo2, UserRound, type LucideIcon } from 'lucide-react';
import { serverMessageOf } from '@/lib/query-client';
import { cn } from '@/lib/utils';
import { orderQueries } from '../api';

/** The kind of each entry in words (read before its title by a screen reader) and its icon. */
export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  placed: 'Order',
  payment: 'Payment',
  refund: 'Refund',
  email: 'Email',
  sync: 'NetSuite',
  staff: 'Staff',
};

const ICONS: Record<TimelineKind, LucideIcon> = { placed: ShoppingBag, payment: CreditCard, refund: Undo2, email: Mail, sync: RefreshCw, staff: UserRound };

export function TimelineList({ events }: { events: TimelineEvent[] }) {
  if (events.length === 0) return <p className="text-stone-600">Nothing has happened to this order yet.</p>;
  return (
    <ol className="relative grid gap-4 border-l border-stone-200 pl-6" aria-label="Order timeline">
      {events.map((event, index) => {
        const Icon = event.problem ? AlertTriangle : ICONS[event.kind];
        return (
          <li key={`${event.at}-${index}`} className="relative" data-testid="timeline-event" data-kind={event.kind} data-problem={event.problem || undefined}>
            <span
              className={cn(
                'absolute -left-[calc(2.25rem+0.5px)] top-0 flex size-6 items-center justify-center rounded-full border bg-white',
                event.problem ? 'border-red-300 text-red-700' : 'border-stone-300 text-brand-700',
              )}
              aria-hidden="true"
            >
              <Icon className="size-3.5" />
            </span>
            <p className={cn('font-medium', event.problem ? 'text-red-800' : 'text-stone-900')}>
              <span className="sr-only">{TIMELINE_KIND_LABELS[event.kind]}{event.problem ? ' problem' : ''}: </span>
              {event.title}
            </p>
            <p className="text-xs text-stone-500">
              <time dateTime={event.at}>{formatOrderDate(event.at)}</time>
              {event.actor && <span className="break-all"> · by {event.actor}</span>}
            </p>
            {event.detail && <p className="mt-0.5 whitespace-pre-wrap break-words text-stone-700">{event.detail}</p>}
            {event.replacementOrderId && (
              <p className="mt-0.5">
                <Link to={`/admin-orders/${event.replacementOrderId}`} className="text-brand-700 underline">
                  Replacement order {event.replacementOrderId.slice(0, 8)}
                </Link>
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

export function OrderTimeline({ orderId }: { orderId: string }) {
  const timeline = useQuery(orderQueries.timeline(orderId));
  if (timeline.isPending) return <p className="text-stone-600">Loading the timeline...</p>;
  if (timeline.isError) return <p className="text-red-700">{serverMessageOf(timeline.error) ?? 'Failed to load the timeline.'}</p>;
  return <TimelineList events={timeline.data.events} />;
}
