/**
 * Names shared by the producers (API, via the outbox) and the consumers (workers). Payloads carry ids,
 * never documents: a processor re-reads the database.
 */
import { z } from 'zod';

/** Outbox topics: what happened, written in the same transaction as the business row. */
export const OUTBOX_TOPICS = {
  orderPlaced: 'order.placed',
  newsletterSubscribed: 'newsletter.subscribed',
  subscriptionCreated: 'subscription.created',
  orderSyncRequested: 'order.sync-requested',
  exportRequested: 'export.requested',
} as const;
export type OutboxTopic = (typeof OUTBOX_TOPICS)[keyof typeof OUTBOX_TOPICS];

export const outboxPayloads = {
  [OUTBOX_TOPICS.orderPlaced]: z.object({ orderId: z.string().uuid() }),
  [OUTBOX_TOPICS.newsletterSubscribed]: z.object({ subscriberId: z.number().int(), email: z.string() }),
  [OUTBOX_TOPICS.subscriptionCreated]: z.object({ subscriptionId: z.string().uuid() }),
  [OUTBOX_TOPICS.orderSyncRequested]: z.object({ orderId: z.string().uuid() }),
  [OUTBOX_TOPICS.exportRequested]: z.object({ exportId: z.string().uuid() }),
} satisfies Record<OutboxTopic, z.ZodType>;

export type OutboxPayload<T extends OutboxTopic> = z.infer<(typeof outboxPayloads)[T]>;
