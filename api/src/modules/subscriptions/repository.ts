/**
 * The shopper's own subscriptions: the page view (GET /api/subscriptions) and the cancel call. Every
 * query is scoped to the signed-in user, so another user's subscription reads as not found.
 */
import type pg from 'pg';
import type { SubscriptionInterval, SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { LineItem } from '@nh/shared/server';

export interface SubscriptionRow {
  id: string;
  status: SubscriptionStatus;
  created_at: Date;
  items: LineItem[];
  amount: string;
  discount_percent: number;
  interval: SubscriptionInterval;
  interval_count: number;
  next_billing_date: Date;
  cancelled_at: Date | null;
  card_type: string | null;
  card_last_four: string | null;
}

/** The page view's columns of `s`, with the card of its latest approved payment (`card`). */
const VIEW_COLUMNS = `s.id, s.status, s.created_at, s.items, s.amount::text as amount, s.discount_percent, s.interval, s.interval_count,
  s.next_billing_date, s.cancelled_at, card.card_type, card.card_last_four`;
const CARD_JOIN = `left join lateral (
    select p.card_type, p.card_last_four from payment_transactions p
    where p.subscription_id = s.id and p.status = 'approved' order by p.created_at desc limit 1) card on true`;

/** The user's subscriptions, newest first. */
export async function listSubscriptions(db: pg.Pool, userId: string): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>({
    name: 'subscriptions_list',
    text: `select ${VIEW_COLUMNS} from subscriptions s ${CARD_JOIN} where s.user_id = $1 order by s.created_at desc, s.id desc`,
    values: [userId],
  });
  return rows;
}

export type CancelOutcome = { kind: 'cancelled'; row: SubscriptionRow } | { kind: 'ended' } | { kind: 'not-found' };

/**
 * Cancels the user's subscription while it is active or paused, as one conditional update: a renewal
 * holding the row waits us out (or we wait for it), and the status is judged on the row as it is
 * then, never on an earlier read. When nothing was updated, the row as read tells "ended" from
 * "not found" (not the user's, or no such id).
 */
export async function cancelSubscription(db: pg.Pool, id: string, userId: string): Promise<CancelOutcome> {
  const { rows } = await db.query<SubscriptionRow & { cancelled: boolean }>({
    name: 'subscriptions_cancel',
    text: `with upd as (
        update subscriptions set status = 'cancelled', cancelled_at = now(), updated_at = now()
        where id = $1 and user_id = $2 and status in ('active', 'paused') returning *)
      select true as cancelled, ${VIEW_COLUMNS} from upd s ${CARD_JOIN}
      union all
      select false, ${VIEW_COLUMNS} from subscriptions s ${CARD_JOIN} where s.id = $1 and s.user_id = $2 and not exists (select 1 from upd)`,
    values: [id, userId],
  });
  const row = rows[0];
  if (!row) return { kind: 'not-found' };
  return row.cancelled ? { kind: 'cancelled', row } : { kind: 'ended' };
}
