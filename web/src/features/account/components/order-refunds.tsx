/** The refunds of a shopper's order (issue 23): each one given, where it went, the items, and what is left. */
import { formatCents } from '@nh/shared';
import { SHOPPER_REFUND_METHOD_WORDS, type ShopperOrder } from '@nh/shared/contracts/account';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function OrderRefunds({ order }: { order: Pick<ShopperOrder, 'refunds' | 'refundLeft'> }) {
  if (order.refunds.length === 0) return null;
  return (
    <section aria-labelledby="order-refunds" className="rounded-lg border border-stone-200 p-4">
      <h3 id="order-refunds" className="mb-2 font-semibold">
        Refunds
      </h3>
      <ul className="space-y-2 text-sm">
        {order.refunds.map((r) => (
          <li key={r.id}>
            <span className="font-medium tabular-nums">{formatCents(r.amount)}</span> · {SHOPPER_REFUND_METHOD_WORDS[r.method]}
            {r.lastFour && r.method !== 'credit' ? ` ending ${r.lastFour}` : ''} · {day(r.createdAt)}
            {(r.items.length > 0 || r.shipping > 0) && (
              <span className="block text-stone-500">
                {[...r.items.map((i) => `${i.quantity} x ${i.productName}`), ...(r.shipping > 0 ? [`Shipping ${formatCents(r.shipping)}`] : [])].join(', ')}
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm">
        {order.refundLeft > 0 ? (
          <>
            Still paid after refunds: <span className="font-medium tabular-nums">{formatCents(order.refundLeft)}</span>
          </>
        ) : (
          'This order has been refunded in full.'
        )}
      </p>
    </section>
  );
}
