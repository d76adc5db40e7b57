/**
 * Store credit expiry (issue 23; docs/decisions/store-credit.md, "Expiry"): what the daily maintenance
 * job runs. Only goodwill grants carry an expiry (`expires_at`); what is left of one when it comes is
 * written off by an `expire` ledger row, under the balance row's lock like every movement, so it waits
 * for (or is waited for by) a spend of the same account and never takes the balance below zero.
 */
import type pg from 'pg';
import type { Cents } from '@nh/shared/money';
import { moveCredit } from './store-credit';
import { dueLots, expiryReference, replayCreditLots, type LedgerMovement } from './store-credit-lots';

/** Accounts with a balance and a grant whose expiry has come (the lots decide whether anything is left of it). */
export async function accountsWithDueCredit(db: pg.Pool, now: Date): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    `select distinct e.user_id from store_credit_entries e
     join store_credit_balances b on b.user_id = e.user_id and b.balance_cents > 0
     where e.expires_at is not null and e.expires_at <= $1`,
    [now],
  );
  return rows.map((r) => r.user_id);
}

/**
 * Expires what is left of the account's grants whose expiry has come, in one transaction holding the
 * balance row's lock from the ledger's read to the last `expire` row. Answers the cents expired (0:
 * nothing, e.g. spent meanwhile). Each expiry's reference (`expire:<grant>:<cents expired before>`)
 * makes a second run of the same moment find it instead of expiring twice.
 */
export async function expireDueCredit(db: pg.Pool, userId: string, now: Date): Promise<Cents> {
  const client = await db.connect();
  try {
    await client.query('begin');
    const { rows: balance } = await client.query<{ balance_cents: number }>('select balance_cents from store_credit_balances where user_id = $1 for update', [userId]);
    let expired = 0;
    if ((balance[0]?.balance_cents ?? 0) > 0) {
      const { rows } = await client.query<{ id: string; kind: LedgerMovement['kind']; amount_cents: number; order_id: string | null; reference: string | null; expires_at: Date | null }>(
        'select id, kind, amount_cents, order_id, reference, expires_at from store_credit_entries where user_id = $1 order by id',
        [userId],
      );
      const lots = replayCreditLots(rows.map((r) => ({ id: Number(r.id), kind: r.kind, amount: r.amount_cents, orderId: r.order_id, reference: r.reference, expiresAt: r.expires_at })));
      for (const lot of dueLots(lots, now)) {
        const moved = await moveCredit(client, {
          userId,
          kind: 'expire',
          amount: lot.remaining,
          reason: `Credit given on entry ${lot.entryId} expired`,
          staffId: null,
          orderId: null,
          subscriptionId: null,
          reference: expiryReference(lot),
        });
        if (!moved.replayed) expired += lot.remaining;
      }
    }
    await client.query('commit');
    return expired;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
