import { discountLines, formatCents, freeShippingNote, HOME_ZONE, TAX_RATE_BPS, type Cents, type CartItem, type CartPricing } from '@nh/shared';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Separator } from '@/components/ui/separator';

function Row({ label, value, testId, emphasis }: { label: ReactNode; value: ReactNode; testId: string; emphasis?: boolean }) {
  return (
    // The total's rule is its own border: a separator element inside the <dl> is not a dt/dd group.
    <div className={emphasis ? 'flex justify-between border-t border-stone-200 pt-3 text-base font-semibold text-brand-900' : 'flex justify-between text-sm text-stone-700'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** The home zone's free-shipping line (shipping-rules.ts), shown before the address's own is known. */
const HOME_FREE_SHIPPING = freeShippingNote(HOME_ZONE);

/**
 * Order summary: the figures are the server's quote for the address typed (issue 25) once it has
 * answered, the shared pricing module's before (the server decides with the same rules).
 */
export function OrderSummary({
  items,
  pricing,
  promoCode,
  renewalTotal = null,
  cadence = 'every month',
  storeCredit = 0,
  taxLabel = `Tax (${TAX_RATE_BPS / 100}%)`,
  freeShippingLine = HOME_FREE_SHIPPING,
  calculating = false,
  children,
}: {
  items: CartItem[];
  pricing: CartPricing;
  promoCode: string | null;
  /** Subscribe & Save: what each renewal charges (the subscriber price, without a promo code). */
  renewalTotal?: Cents | null;
  /** How often the plan renews, in words ("every 2 months"). */
  cadence?: string;
  /** The signed-in shopper's store credit that will pay first (the server decides the amount at Place Order). */
  storeCredit?: Cents;
  /** The tax row's words: "Tax (8%)" under the flat rule, else "Tax" or "Estimated tax" (use-checkout-quote.ts). */
  taxLabel?: string;
  /** The address's zone's free-shipping line, from the shipping rule; null for none. */
  freeShippingLine?: string | null;
  /** The figures shown are not yet the server's for what is typed (its quote is on the way). */
  calculating?: boolean;
  children?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Order Summary</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <ul className="space-y-3" aria-label="Items in your order">
          {items.map((item) => (
            <li key={`${item.productId}:${item.variantSku ?? ''}`} className="flex items-center gap-3">
              {item.image && <img src={`/api/public/${item.image}`} alt="" className="size-12 rounded-md bg-cream object-cover" />}
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-stone-900">{item.name}</p>
                <p className="text-xs text-stone-500">Qty: {item.quantity}</p>
              </div>
              <span className="text-sm font-medium">{formatCents(item.price * item.quantity)}</span>
            </li>
          ))}
        </ul>
        {children}
        <Separator />
        <dl className="space-y-2">
          <Row label="Subtotal" value={formatCents(pricing.subtotal)} testId="summary-subtotal" />
          {discountLines(pricing, promoCode).map((line) => (
            <Row key={line.kind} label={line.label} value={`-${formatCents(line.amount)}`} testId={`summary-${line.kind}-discount`} />
          ))}
          <Row label="Shipping" value={pricing.shipping === 0 ? 'FREE' : formatCents(pricing.shipping)} testId="summary-shipping" />
          <Row label={taxLabel} value={formatCents(pricing.tax)} testId="summary-tax" />
          <Row label="Total" value={formatCents(pricing.total)} testId="summary-total" emphasis />
          {Math.min(storeCredit, pricing.total) > 0 && (
            <>
              <Row label="Store credit" value={`-${formatCents(Math.min(storeCredit, pricing.total))}`} testId="summary-store-credit" />
              <Row label="To pay by card" value={formatCents(pricing.total - Math.min(storeCredit, pricing.total))} testId="summary-card-amount" />
            </>
          )}
        </dl>
        <p className="text-xs text-stone-500" role="status" aria-live="polite" data-testid="summary-calculating">
          {calculating ? 'Calculating…' : ''}
        </p>
        {renewalTotal !== null && (
          <p className="text-sm text-stone-600" data-testid="summary-renewal">
            {renewalTotal === pricing.total
              ? `Then ${formatCents(renewalTotal)} ${cadence} until you cancel.`
              : `Today's total includes your promo code. Then ${formatCents(renewalTotal)} ${cadence} (Subscribe & Save price) until you cancel.`}
          </p>
        )}
        {pricing.shipping > 0 && freeShippingLine && (
          <p className="text-xs text-stone-500" data-testid="summary-free-shipping">
            {freeShippingLine}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
