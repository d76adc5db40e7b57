import { OUTBOX_TOPICS } from '@nh/shared';
import { recordOutbox, tables, type Db } from '@nh/shared/server';

/**
 * Adds an address to the list. A new address and its welcome-email outbox row are written in one
 * transaction; an address already on the list writes nothing (no second row, no second email).
 */
export async function subscribe(db: Db, email: string): Promise<{ alreadySubscribed: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tables.newsletterSubscribers)
      .values({ email })
      .onConflictDoNothing({ target: tables.newsletterSubscribers.email })
      .returning({ id: tables.newsletterSubscribers.id });
    if (!row) return { alreadySubscribed: true };
    await recordOutbox(tx, OUTBOX_TOPICS.newsletterSubscribed, { subscriberId: row.id, email });
    return { alreadySubscribed: false };
  });
}
