import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { UnsubscribeState } from '@nh/shared/contracts/newsletter';
import { recordOutbox, tables, type Db } from '@nh/server';

const subscribers = tables.newsletterSubscribers;

/**
 * Adds an address to the list. A new address and its welcome-email outbox row are written in one
 * transaction; an address already on the list writes nothing (no second row, no second email). An
 * address that had unsubscribed is subscribed again (a fresh subscribed_at) and its welcome job runs
 * again: the email log sends the welcome only if it never went out.
 */
export async function subscribe(db: Db, email: string): Promise<{ alreadySubscribed: boolean }> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(subscribers)
      .values({ email })
      .onConflictDoNothing({ target: subscribers.email })
      .returning({ id: subscribers.id });
    const [row] = created
      ? [created]
      : await tx
          .update(subscribers)
          .set({ unsubscribedAt: null, subscribedAt: sql`now()` })
          .where(and(eq(subscribers.email, email), isNotNull(subscribers.unsubscribedAt)))
          .returning({ id: subscribers.id });
    if (!row) return { alreadySubscribed: true };
    await recordOutbox(tx, OUTBOX_TOPICS.newsletterSubscribed, { subscriberId: row.id, email });
    return { alreadySubscribed: false };
  });
}

/** "r***@example.com": enough for a person to know the address, not to read it off a forwarded link. */
const maskEmail = (email: string) => `${email.slice(0, 1)}***${email.slice(email.lastIndexOf('@'))}`;

const stateOf = (row: { email: string; unsubscribedAt: Date | null }): UnsubscribeState => ({
  email: maskEmail(row.email),
  subscribed: row.unsubscribedAt === null,
});

/** Where the address of an unsubscribe token stands; undefined for an unknown token (a uuid, checked by the caller). */
export async function subscriptionByToken(db: Db, token: string): Promise<UnsubscribeState | undefined> {
  const [row] = await db
    .select({ email: subscribers.email, unsubscribedAt: subscribers.unsubscribedAt })
    .from(subscribers)
    .where(eq(subscribers.unsubscribeToken, token));
  return row && stateOf(row);
}

/** Takes the token's address off the list; idempotent (the first unsubscribe time stays). */
export async function unsubscribe(db: Db, token: string): Promise<UnsubscribeState | undefined> {
  const [row] = await db
    .update(subscribers)
    .set({ unsubscribedAt: sql`coalesce(${subscribers.unsubscribedAt}, now())` })
    .where(eq(subscribers.unsubscribeToken, token))
    .returning({ email: subscribers.email, unsubscribedAt: subscribers.unsubscribedAt });
  return row && stateOf(row);
}
