/** The newsletter list (table newsletter_subscribers): subscribing, and an address's state by its unsubscribe token. */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { newsletterSubscribers as subscribers } from '../db/schema';

export interface SubscriberState {
  email: string;
  unsubscribedAt: Date | null;
}

/**
 * Puts an address on the list: a new row, or an address that had unsubscribed subscribed again (a fresh
 * subscribed_at). The row's id, or null when the address is already subscribed (nothing written).
 */
export async function addSubscriber(tx: DbOrTx, email: string): Promise<number | null> {
  const [created] = await tx.insert(subscribers).values({ email }).onConflictDoNothing({ target: subscribers.email }).returning({ id: subscribers.id });
  if (created) return created.id;
  const [again] = await tx
    .update(subscribers)
    .set({ unsubscribedAt: null, subscribedAt: sql`now()` })
    .where(and(eq(subscribers.email, email), isNotNull(subscribers.unsubscribedAt)))
    .returning({ id: subscribers.id });
  return again?.id ?? null;
}

export async function findSubscriberByToken(db: DbOrTx, token: string): Promise<SubscriberState | undefined> {
  const [row] = await db.select({ email: subscribers.email, unsubscribedAt: subscribers.unsubscribedAt }).from(subscribers).where(eq(subscribers.unsubscribeToken, token));
  return row;
}

/** Takes the token's address off the list; the first unsubscribe time stays. Undefined for an unknown token. */
export async function unsubscribeByToken(db: DbOrTx, token: string): Promise<SubscriberState | undefined> {
  const [row] = await db
    .update(subscribers)
    .set({ unsubscribedAt: sql`coalesce(${subscribers.unsubscribedAt}, now())` })
    .where(eq(subscribers.unsubscribeToken, token))
    .returning({ email: subscribers.email, unsubscribedAt: subscribers.unsubscribedAt });
  return row;
}
