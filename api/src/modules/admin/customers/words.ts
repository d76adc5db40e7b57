/** Staff's words for what a customer's page shows (never an enum value). */
import type { CustomerPlanRow } from '@nh/server/queries/customers';
import { toCents } from '@nh/shared/money';
import { EMAIL_KINDS } from '@nh/shared/contracts/emails';
import { ADMIN_SUBSCRIPTION_STATUS_LABELS } from '@nh/shared/contracts/admin-subscriptions';
import { INTERVAL_MONTHS } from '@nh/shared/contracts/subscriptions';
import type { CustomerDetail } from '@nh/shared/contracts/admin-customers';

export const ORDER_STATUS_WORDS: Record<string, string> = {
  pending: 'Awaiting payment',
  processing: 'Paid, being prepared',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

export const emailLabel = (kind: string): string => (EMAIL_KINDS as Record<string, string>)[kind] ?? 'Email';

export const planStatusLabel = (status: string): string => (ADMIN_SUBSCRIPTION_STATUS_LABELS as Record<string, string>)[status] ?? status;

export const planMonths = (p: Pick<CustomerPlanRow, 'interval' | 'interval_count'>): number =>
  ((INTERVAL_MONTHS as Record<string, number>)[p.interval] ?? 1) * p.interval_count;

export function planOf(p: CustomerPlanRow): CustomerDetail['plans'][number] {
  const open = p.status === 'active' || p.status === 'paused';
  return {
    id: p.id,
    status: p.status,
    statusLabel: planStatusLabel(p.status),
    amount: toCents(p.amount),
    everyMonths: planMonths(p),
    nextBillingDate: open && p.next_billing_date ? p.next_billing_date.toISOString() : null,
    items: p.items.map((i) => ({ name: i.productName, quantity: i.quantity })),
  };
}
