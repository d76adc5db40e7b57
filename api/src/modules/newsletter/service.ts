import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { UnsubscribeState } from '@nh/shared/contracts/newsletter';
import type { Db } from '@nh/server/db/client';
import { addSubscriber, findSubscriberByToken, unsubscribeByToken, type SubscriberState } from '@nh/server/queries/newsletter';
import { recordOutbox } from '@nh/server/queries/outbox';

/**
 * Adds an address to the list. A new address and its welcome-email outbox row are written in one
 * transaction; an address already on the list writes nothing (no second row, no second email). An
 * address that had unsubscribed is subscribed again (a fresh subscribed_at) and its welcome job runs
 * again: the email log sends the welcome only if it never went out.
 */
export async function subscribe(db: Db, email: string): Promise<{ alreadySubscribed: boolean }> {
  return db.transaction(async (tx) => {
    const subscriberId = await addSubscriber(tx, email);
    if (subscriberId === null) return { alreadySubscribed: true };
    await recordOutbox(tx, OUTBOX_TOPICS.newsletterSubscribed, { subscriberId, email });
    return { alreadySubscribed: false };
  });
}

/** "r***@example.com": enough for a person to know the address, not to read it off a forwarded link. */
const maskEmail = (email: string) => `${email.slice(0, 1)}***${email.slice(email.lastIndexOf('@'))}`;

const stateOf = (row: SubscriberState): UnsubscribeState => ({
  email: maskEmail(row.email),
  subscribed: row.unsubscribedAt === null,
});

/** Where the address of an unsubscribe token stands; undefined for an unknown token (a uuid, checked by the caller). */
export async function subscriptionByToken(db: Db, token: string): Promise<UnsubscribeState | undefined> {
  const row = await findSubscriberByToken(db, token);
  return row && stateOf(row);
}

/** Takes the token's address off the list; idempotent (the first unsubscribe time stays). */
export async function unsubscribe(db: Db, token: string): Promise<UnsubscribeState | undefined> {
  const row = await unsubscribeByToken(db, token);
  return row && stateOf(row);
}
