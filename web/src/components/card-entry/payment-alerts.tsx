import { CHECKOUT_MESSAGES, SANDBOX_TEST_CARD, type PaymentsStatus } from '@nh/shared/contracts/checkout';
import { AlertTriangle, FlaskConical } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/** Payments not configured (destructive), or sandbox mode with the test card details (info). */
export function PaymentAlerts({ status }: { status: PaymentsStatus | null | undefined }) {
  if (!status) return null;
  if (!status.configured) {
    return (
      <Alert variant="destructive" data-testid="payments-unavailable">
        <AlertTriangle aria-hidden="true" />
        <AlertTitle>Payments unavailable</AlertTitle>
        <AlertDescription>{CHECKOUT_MESSAGES.paymentsUnavailable}</AlertDescription>
      </Alert>
    );
  }
  if (status.environment !== 'sandbox') return null;
  return (
    <Alert variant="info" data-testid="sandbox-alert">
      <FlaskConical aria-hidden="true" />
      <AlertTitle>Test mode: no real charges</AlertTitle>
      <AlertDescription>
        <p>
          Use card <strong>{SANDBOX_TEST_CARD.number}</strong> with any future expiration date and any CVV. Use ZIP code{' '}
          <strong>{SANDBOX_TEST_CARD.declineZip}</strong> to simulate a declined payment.
        </p>
      </AlertDescription>
    </Alert>
  );
}
