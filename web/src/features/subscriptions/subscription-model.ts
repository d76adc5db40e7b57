/** How My Subscriptions groups and labels plans (spec §4; issue 21: a paused plan is not past, it is listed with the active ones). */
import type { SubscriptionInterval, SubscriptionStatus, SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { cardBrandName, cardEnding } from '@nh/shared/cards';

export interface SubscriptionGroups {
  active: SubscriptionView[];
  past: SubscriptionView[];
}

const newestFirst = (a: SubscriptionView, b: SubscriptionView) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

export function groupSubscriptions(list: readonly SubscriptionView[]): SubscriptionGroups {
  const sorted = [...list].sort(newestFirst);
  const current = (s: SubscriptionView) => s.status === 'active' || s.status === 'paused';
  return { active: sorted.filter(current), past: sorted.filter((s) => !current(s)) };
}

export const STATUS_LABEL: Record<SubscriptionStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

export const INTERVAL_LABEL: Record<SubscriptionInterval, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  biannual: 'Every 6 Months',
  annual: 'Yearly',
};

/** "Visa ending in 1111", "Card ending in 1111", "Visa", or null when nothing is known about the card. */
export function cardLabel({ cardType, cardLastFour }: Pick<SubscriptionView, 'cardType' | 'cardLastFour'>): string | null {
  return cardEnding(cardType, cardLastFour, { joiner: 'ending in' }) ?? cardBrandName(cardType);
}
