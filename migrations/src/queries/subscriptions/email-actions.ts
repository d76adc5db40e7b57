/**
 * One-click actions from emails (issue 22, email_action_tokens): one row per plan, billing period, action
 * and cadence; only the token's SHA-256 stored, the token made by the mail worker as it sends the email
 * (inside the send's transaction, as ../single-use-tokens.ts makes the other links' tokens), so no outbox
 * row, job or log line holds it. A later email for the same row replaces its hash (a retried job, or the
 * shipping email after the reminder): one live link per purpose, the latest email's.
 */
import type pg from 'pg';
import type { SubscriptionRow } from '../../db/schema';
import { newSingleUseToken } from '../single-use-tokens';
import type { Queryable } from './plan';

/** What a token is for. `intervalCount`: the cadence of a `cadence` link (0 for the other actions). */
export interface EmailActionPurpose {
  subscriptionId: string;
  /** yyyy-MM-dd (UTC) of the delivery. */
  period: string;
  action: string;
  intervalCount?: number;
}

/** Days after its billing period a token's row may be purged (it went stale on that day at the latest). */
const BACKSTOP_DAYS = 2;

/**
 * A new token for the purpose, stored as its hash (the row made, or its earlier hash replaced: any link
 * sent before for it stops working). Null when the purpose's link was used already (it stays used).
 */
export async function mintEmailActionToken(client: Queryable | pg.ClientBase, p: EmailActionPurpose): Promise<string | null> {
  const { token, hash } = newSingleUseToken();
  const { rowCount } = await client.query({
    name: 'mint_email_action_token',
    text: `insert into email_action_tokens (token_hash, subscription_id, billing_period, action, interval_count, expires_at)
           values ($1, $2, $3::date, $4, $5, $3::date + make_interval(days => ${BACKSTOP_DAYS}))
           on conflict (subscription_id, billing_period, action, interval_count)
           do update set token_hash = excluded.token_hash, expires_at = excluded.expires_at
           where email_action_tokens.used_at is null`,
    values: [hash, p.subscriptionId, p.period, p.action, p.intervalCount ?? 0],
  });
  return rowCount ? token : null;
}

/** A token's row by its hash, with what the page shows of its plan. */
export interface EmailActionTokenWithPlan {
  id: string;
  subscription_id: string;
  billing_period: string;
  action: string;
  interval_count: number;
  expires_at: Date;
  used_at: Date | null;
  user_id: string | null;
  status: SubscriptionRow['status'];
  items: SubscriptionRow['items'];
  amount: string;
  plan_interval: SubscriptionRow['interval'];
  plan_interval_count: number;
  next_billing_date: Date;
  resumes_on: string | null;
  failed_attempts: number;
}

export async function findEmailActionToken(pool: Queryable, tokenHash: string): Promise<EmailActionTokenWithPlan | null> {
  const { rows } = await pool.query<EmailActionTokenWithPlan>({
    name: 'email_action_token_by_hash',
    text: `select t.id, t.subscription_id, to_char(t.billing_period, 'YYYY-MM-DD') as billing_period, t.action, t.interval_count, t.expires_at, t.used_at,
             s.user_id, s.status, s.items, s.amount::text as amount, s.interval as plan_interval, s.interval_count as plan_interval_count,
             s.next_billing_date, to_char(s.resumes_on, 'YYYY-MM-DD') as resumes_on, s.failed_attempts
           from email_action_tokens t join subscriptions s on s.id = t.subscription_id
           where t.token_hash = $1`,
    values: [tokenHash],
  });
  return rows[0] ?? null;
}

/** The plan an order is a renewal of (its charge row names the plan), or null for a checkout order. */
export async function findRenewalPlanOfOrder(pool: Queryable, orderId: string): Promise<string | null> {
  const { rows } = await pool.query<{ subscription_id: string }>({
    name: 'renewal_plan_of_order',
    text: `select p.subscription_id from payment_transactions p where p.order_id = $1 and p.subscription_id is not null and p.kind = 'charge' and p.billing_period is not null limit 1`,
    values: [orderId],
  });
  return rows[0]?.subscription_id ?? null;
}
