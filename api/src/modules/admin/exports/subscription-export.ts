/** The subscriptions export's kind (issue 21): the order export's service with the plans' rows, topic and filters. */
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { subscriptionExportFiltersSchema, type SubscriptionExportFiltersView } from '@nh/shared/contracts/subscription-export';
import type { ExportKindSpec } from './service';

export const SUBSCRIPTION_EXPORTS: ExportKindSpec<SubscriptionExportFiltersView> = {
  kind: 'subscriptions',
  topic: OUTBOX_TOPICS.subscriptionExportRequested,
  filtersView: (stored) => {
    const parsed = subscriptionExportFiltersSchema.safeParse(stored ?? {});
    return { status: parsed.success ? (parsed.data.status ?? null) : null };
  },
};
