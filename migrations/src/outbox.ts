import { sql } from 'drizzle-orm';
import { outboxPayloads, type OutboxPayload, type OutboxTopic } from '@nh/shared/jobs';
import type { DbOrTx } from './db/client';
import { outbox } from './db/schema';

/** Postgres NOTIFY channel the relay listens on, so new rows are moved at once. */
export const OUTBOX_CHANNEL = 'outbox_new';

/**
 * Records follow-up work in the caller's transaction: it exists if and only if the business row does.
 * The NOTIFY is delivered at commit (and dropped on rollback), waking the relay.
 */
export async function recordOutbox<T extends OutboxTopic>(tx: DbOrTx, topic: T, payload: OutboxPayload<T>): Promise<void> {
  const parsed = outboxPayloads[topic].parse(payload);
  await tx.insert(outbox).values({ topic, payload: parsed });
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${topic})`);
}
