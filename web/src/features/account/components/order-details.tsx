/** One order as the shopper (or a guest with its link) sees it: status, items, totals, carrier and tracking. */
import type { ShopperOrder, ShopperOrderSummary } from '@nh/shared/contracts/account';
import { formatCents } from '@nh/shared/money';
import { discountLines } from '@nh/shared/pricing';
import { shippingMethodWords } from '@nh/shared/contracts/order-delivery';
import { ExternalLink } from 'lucide-react';
import { formatLongDate } from '@/lib/format-date';
import { OrderRefunds } from './order-refunds';

const STATUS_WORDS: Record<ShopperOrderSummary['status'], string> = {
  pending: 'Pending',
  processing: 'Processing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

const STATUS_STYLE: Record<ShopperOrderSummary['status'], string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-sky-100 text-sky-900',
  shipped: 'bg-brand-100 text-brand-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  cancelled: 'bg-stone-200 text-stone-800',
};

export function OrderStatus({ status }: { status: ShopperOrderSummary['status'] }) {
  return <span className={`inline-flex rounded-full px-3 py-1 text-sm font-medium ${STATUS_STYLE[status]}`}>{STATUS_WORDS[status]}</span>;
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-1 ${strong ? 'border-t border-stone-200 pt-3 text-lg font-semibold text-brand-900' : 'text-stone-700'}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function OrderDetails({ order }: { order: ShopperOrder }) {
  const a = order.shippingAddress;
  return (
    <div className="space-y-8" data-testid="order-details">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold text-brand-900">Order #{order.number}</h2>
          <p className="text-stone-600">Placed {formatLongDate(order.placedAt)}</p>
        </div>
        <OrderStatus status={order.status} />
      </div>

      <section aria-labelledby="order-shipping" className="rounded-2xl bg-brand-50 p-5">
        <h3 id="order-shipping" className="mb-2 font-semibold text-brand-900">
          Shipping
        </h3>
        {order.carrier || order.trackingNumber ? (
          <dl className="grid gap-1 text-stone-700">
            {order.carrier && (
              <div className="flex gap-2">
                <dt className="font-medium">Carrier:</dt>
                <dd>{order.carrier}</dd>
              </div>
            )}
            {order.trackingNumber && (
              <div className="flex gap-2">
                <dt className="font-medium">Tracking number:</dt>
                <dd>{order.trackingNumber}</dd>
              </div>
            )}
          </dl>
        ) : (
          <p className="text-stone-700">{order.status === 'cancelled' ? 'This order was cancelled.' : 'Tracking details appear here once your order ships.'}</p>
        )}
        {order.trackingUrl && (
          <a href={order.trackingUrl} target="_blank" rel="noopener noreferrer" className="mt-3 inline-flex items-center gap-1 font-medium text-brand-700 underline underline-offset-4">
            Track your parcel with {order.carrier}
            <ExternalLink className="size-4" aria-hidden="true" />
          </a>
        )}
        {order.deliveredAt && <p className="mt-2 text-stone-700">Delivered {formatLongDate(order.deliveredAt)}</p>}
        <p className="mt-3 text-stone-700">
          To {order.customerName}, {a.address}, {a.city}, {a.state} {a.zip}
        </p>
      </section>

      <section aria-labelledby="order-items">
        <h3 id="order-items" className="mb-3 font-semibold text-brand-900">
          Items
        </h3>
        <table className="w-full text-left text-stone-700">
          <thead className="text-sm text-stone-600">
            <tr>
              <th className="pb-2 font-medium">Product</th>
              <th className="pb-2 text-center font-medium">Qty</th>
              <th className="pb-2 text-right font-medium">Price</th>
              <th className="pb-2 text-right font-medium">Total</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((line, i) => (
              <tr key={`${line.productId}-${i}`} className="border-t border-stone-100">
                <td className="py-2">{line.productName}</td>
                <td className="py-2 text-center">{line.quantity}</td>
                <td className="py-2 text-right">{formatCents(line.unitPrice)}</td>
                <td className="py-2 text-right">{formatCents(line.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="order-totals">
        <h3 id="order-totals" className="sr-only">
          Totals
        </h3>
        <dl className="ml-auto max-w-xs">
          <Row label="Subtotal" value={formatCents(order.subtotal)} />
          {discountLines(order, order.promoCode).map((line) => (
            <Row key={line.kind} label={line.label} value={`-${formatCents(line.amount)}`} />
          ))}
          <Row label="Shipping" value={order.shipping === 0 ? 'Free' : formatCents(order.shipping)} />
          {order.shippingMethod === 'express' && (
            <p className="pb-1 text-right text-xs text-stone-600" data-testid="order-shipping-method">
              {shippingMethodWords('express', order.shippingAddress.state)}
            </p>
          )}
          <Row label="Tax" value={formatCents(order.tax)} />
          <Row label="Total" value={formatCents(order.total)} strong />
          {order.storeCredit > 0 && (
            <>
              <Row label="Paid with store credit" value={`-${formatCents(order.storeCredit)}`} />
              <Row label="Paid by card" value={formatCents(order.total - order.storeCredit)} />
            </>
          )}
        </dl>
      </section>
      <OrderRefunds order={order} />
    </div>
  );
}
