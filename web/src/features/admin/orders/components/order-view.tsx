/** An order as staff see it: customer, addresses, items and totals, timeline, fulfilment, plan, payment, emails, NetSuite. */
import { formatOrderDate, type AdminOrder } from '@nh/shared/contracts/admin';
import { describeSkippedPeriod } from '@nh/shared/contracts/subscriptions';
import { centsToDecimal, formatCents, toCents } from '@nh/shared/money';
import { discountLines } from '@nh/shared/pricing';
import { shippingMethodWords, taxSourceWords } from '@nh/shared/contracts/order-delivery';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Separator } from '@/components/ui/separator';
import { useCan } from '../../shell/role-gate';
import { syncStatusLabel } from '../../ui/status-labels';
import { EditOrderAddressButton } from './edit-order-address';
import { FulfillmentForm, FulfillmentSummary } from './fulfillment';
import { OrderPayments } from './order-payments';
import { Section } from './order-section';
import { OrderStatusBadge } from './order-status-badge';
import { OrderTimeline } from './order-timeline';
import { RefundButton } from './refund-dialog';
import { RefundLinesButton } from './refund-lines-dialog';
import { GrantCreditButton } from '../../credit/components/grant-credit-dialog';
import { ClaimButton } from '../../claims/components/claim-dialog';
import { ResendEmails } from './resend-emails';
import { RetrySyncButton } from './retry-sync-button';

const money = (value: string) => `$${value}`;

function AddressLines({ address }: { address: AdminOrder['shippingAddress'] }) {
  return (
    <address className="not-italic">
      {address.address}
      <br />
      {address.city}, {address.state} {address.zip}
    </address>
  );
}

function Line({ label, value, strong = false }: { label: ReactNode; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 ${strong ? 'text-base font-semibold' : ''}`}>
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

export function OrderView({ order }: { order: AdminOrder }) {
  const canFulfil = useCan('orders.fulfil');
  const canSync = useCan('sync.manage');
  const canRefund = useCan('orders.refund');
  const canResend = useCan('orders.resendEmail');
  const canGiveCredit = useCan('credit.grant');
  const showPayment = order.paymentTransactionId !== null || order.payments.length > 0;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="break-all font-mono text-2xl font-semibold text-brand-900">Order {order.id}</h1>
        <OrderStatusBadge status={order.status} className="text-sm" />
      </div>
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="grid content-start gap-6">
          <Section title="Customer Information" action={canGiveCredit && order.userId && <GrantCreditButton customerId={order.userId} />}>
            <dl className="grid gap-1 sm:grid-cols-[8rem_1fr]">
              <dt className="text-stone-500">Name</dt>
              <dd>{order.customerName}</dd>
              <dt className="text-stone-500">Email</dt>
              <dd>{order.customerEmail}</dd>
              {order.customerPhone && (
                <>
                  <dt className="text-stone-500">Phone</dt>
                  <dd>{order.customerPhone}</dd>
                </>
              )}
              <dt className="text-stone-500">Order Date</dt>
              <dd>{formatOrderDate(order.createdAt)}</dd>
            </dl>
          </Section>
          <div className="grid gap-6 sm:grid-cols-2">
            <Section title="Shipping Address" action={<EditOrderAddressButton order={order} />}>
              <AddressLines address={order.shippingAddress} />
            </Section>
            <Section title="Billing Address">{order.billingAddress ? <AddressLines address={order.billingAddress} /> : <p className="text-stone-600">Same as shipping address</p>}</Section>
          </div>
          <Section title="Order Items" action={<ClaimButton order={order} />}>
            <ul className="divide-y divide-stone-200">
              {order.items.map((item, index) => (
                <li key={`${item.productId ?? 'x'}-${item.variantSku ?? ''}-${index}`} className="flex justify-between gap-4 py-2">
                  <span>
                    <span className="font-medium">{item.productName || 'Product'}</span>
                    <span className="block text-stone-500">Quantity: {item.quantity}</span>
                  </span>
                  <span className="tabular-nums">{money(item.price)}</span>
                </li>
              ))}
            </ul>
            <Separator className="my-3" />
            <div className="grid gap-1.5">
              <Line label="Subtotal" value={money(order.subtotal)} />
              {discountLines(
                { discount: toCents(order.discount), subscribeDiscount: toCents(order.subscribeDiscount), promoDiscount: toCents(order.promoDiscount) },
                order.promoCode,
              ).map((line) => (
                <Line key={line.kind} label={line.label} value={`-${formatCents(line.amount)}`} />
              ))}
              <Line label="Shipping" value={money(order.shipping)} />
              <p className="text-right text-xs text-stone-600" data-testid="order-shipping-method">
                {shippingMethodWords(order.shippingMethod, order.shippingAddress.state)}
              </p>
              <Line label="Tax" value={money(order.tax)} />
              <p className="text-right text-xs text-stone-600" data-testid="order-tax-source">
                {taxSourceWords(order.taxSource)}
              </p>
              {order.promoCode && (
                <Line
                  label={
                    <span className="flex items-center gap-2">
                      Promo Code: <span className="font-mono">{order.promoCode}</span>
                    </span>
                  }
                  value="Applied"
                />
              )}
              <Separator className="my-1" />
              <Line label="Total" value={money(order.total)} strong />
              {order.creditApplied !== '0.00' && (
                <>
                  <Line label="Paid with store credit" value={`-${money(order.creditApplied)}`} />
                  <Line label="Paid by card" value={money(centsToDecimal(toCents(order.total) - toCents(order.creditApplied)))} />
                </>
              )}
            </div>
          </Section>
          {order.customerNotes && (
            <Section title="Customer Notes">
              <p className="whitespace-pre-wrap">{order.customerNotes}</p>
            </Section>
          )}
          <Section title="Timeline">
            <OrderTimeline orderId={order.id} />
          </Section>
        </div>
        <div className="grid content-start gap-6">
          {canFulfil ? <FulfillmentForm key={order.updatedAt} order={order} /> : <FulfillmentSummary order={order} />}
          {order.subscriptionId && (
            <Section title="Subscribe & Save">
              <p>A delivery of Subscribe &amp; Save plan #{order.subscriptionId.slice(0, 8)}.</p>
              <p className="break-all font-mono text-stone-500">{order.subscriptionId}</p>
              {order.subscriptionSkippedPeriods.length > 0 && (
                <ul className="mt-2 space-y-1" aria-label="Skipped periods of this plan">
                  {order.subscriptionSkippedPeriods.map((skipped) => (
                    <li key={skipped.period}>{describeSkippedPeriod(skipped, 'staff')}</li>
                  ))}
                </ul>
              )}
            </Section>
          )}
          {showPayment && (
            <Section title="Payment" action={
              canRefund &&
              order.refundable !== '0.00' && (
                <span className="flex gap-2">
                  <RefundLinesButton order={order} />
                  <RefundButton order={order} />
                </span>
              )
            }>
              {order.paymentTransactionId && (
                <div className="mb-2">
                  <p className="text-stone-500">Transaction ID</p>
                  <p className="break-all font-mono">{order.paymentTransactionId}</p>
                </div>
              )}
              <OrderPayments order={order} />
            </Section>
          )}
          {canResend && (
            <Section title="Customer Emails">
              <ResendEmails order={order} />
            </Section>
          )}
          <Section title="NetSuite">
            <Badge variant={order.netsuiteSyncStatus === 'failed' ? 'destructive' : 'outline'}>{syncStatusLabel(order.netsuiteSyncStatus)}</Badge>
            {order.netsuiteSyncError && <p className="mt-2 text-red-700">{order.netsuiteSyncError}</p>}
            {order.netsuiteSyncStatus === 'failed' && canSync && <RetrySyncButton orderId={order.id} />}
          </Section>
        </div>
      </div>
    </>
  );
}
