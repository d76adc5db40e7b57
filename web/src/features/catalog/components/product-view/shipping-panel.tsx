import { EXPRESS_SHIPPING_CENTS, SHIPPING_TIMES, STOREFRONT_FREE_SHIPPING_THRESHOLD_CENTS } from '@nh/shared/constants';
import { formatCents } from '@nh/shared/money';
import { Package, Truck } from 'lucide-react';
import { dollars } from './dollars';

/** The Shipping tab: standard (free over the threshold) and express. */
export function ShippingPanel() {
  return (
    <ul className="space-y-4">
      <li className="flex gap-3">
        <Truck className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
        <span>
          <strong className="text-brand-900">Standard Shipping</strong>: {SHIPPING_TIMES.standard}, free on orders of{' '}
          {dollars(STOREFRONT_FREE_SHIPPING_THRESHOLD_CENTS)} or more
        </span>
      </li>
      <li className="flex gap-3">
        <Package className="mt-0.5 size-5 text-brand-700" aria-hidden="true" />
        <span>
          <strong className="text-brand-900">Express Shipping</strong>: {SHIPPING_TIMES.express} at {formatCents(EXPRESS_SHIPPING_CENTS)}
        </span>
      </li>
    </ul>
  );
}
