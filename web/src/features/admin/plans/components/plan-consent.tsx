/**
 * Consent on record (issue 22): what the customer agreed to when they subscribed (the terms' version, the
 * price per delivery, how often, when, the address and the browser), the exact terms text behind a
 * disclosure, and the price-change notices sent since.
 */
import type { AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { SUBSCRIPTION_TERMS_MESSAGES } from '@nh/shared/contracts/subscription-terms';
import { formatStaffTime, formatUtcDay } from '@nh/shared/days';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className="text-sm text-stone-900">{children}</dd>
    </div>
  );
}

export function PlanConsent({ plan }: { plan: Pick<AdminSubscriptionDetail, 'consent' | 'priceNotices'> }) {
  const { consent, priceNotices } = plan;
  return (
    <Card data-testid="plan-consent">
      <CardHeader>
        <CardTitle className="text-base">{SUBSCRIPTION_TERMS_MESSAGES.sectionTitle}</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {consent === null ? (
          <p className="text-stone-600">No consent on record: this plan was started before the shop kept one.</p>
        ) : (
          <>
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <Fact label="Terms version">{consent.termsVersion}</Fact>
              <Fact label="Agreed price per delivery">${consent.agreedAmount}</Fact>
              <Fact label="Delivery frequency">{consent.cadence}</Fact>
              <Fact label="Agreed at">{formatStaffTime(consent.agreedAt)}</Fact>
              <Fact label="Shipping address">
                {consent.shippingAddress
                  ? `${consent.shippingAddress.address}, ${consent.shippingAddress.city}, ${consent.shippingAddress.state} ${consent.shippingAddress.zip}`
                  : 'Removed (anonymised)'}
              </Fact>
              <Fact label="Browser">{consent.userAgent ?? (consent.anonymised ? 'Removed (anonymised)' : 'Not known')}</Fact>
            </dl>
            <details className="rounded-lg border border-stone-200 p-3 text-sm">
              <summary className="cursor-pointer font-medium text-brand-900">Read the exact terms the customer agreed to</summary>
              <div className="mt-2 space-y-2 text-stone-800" data-testid="consent-terms-text">
                {consent.termsText.split('\n').map((paragraph, i) => (
                  <p key={i}>{paragraph}</p>
                ))}
              </div>
            </details>
          </>
        )}
        <div>
          <h4 className="text-sm font-medium text-stone-900">Price-change notices</h4>
          {priceNotices.length === 0 ? (
            <p className="text-sm text-stone-600">No price-change notice sent.</p>
          ) : (
            <ul className="grid grid-cols-1 gap-1 text-sm" data-testid="price-notices">
              {priceNotices.map((n) => (
                <li key={`${n.sentAt}-${n.toAmount}`}>
                  {formatStaffTime(n.sentAt)}: ${n.fromAmount} to ${n.toAmount} per delivery, from the delivery of {formatUtcDay(new Date(`${n.firstChargeOn}T00:00:00.000Z`))}
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
