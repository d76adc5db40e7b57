import type { OrderStatus } from '@nh/shared/contracts/admin';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { statusLabel } from '../../ui/status-labels';

/** Green delivered, blue shipped, red cancelled (spec); amber pending, violet processing. */
const STYLES: Record<OrderStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-violet-100 text-violet-900',
  shipped: 'bg-blue-100 text-blue-900',
  delivered: 'bg-green-100 text-green-900',
  cancelled: 'bg-red-100 text-red-900',
};

export function OrderStatusBadge({ status, className }: { status: OrderStatus; className?: string }) {
  return (
    <Badge variant="outline" data-status={status} className={cn('border-transparent', STYLES[status], className)}>
      {statusLabel(status)}
    </Badge>
  );
}
