/**
 * The stored card's expiry (card_expires_on): written by the workers after a card is stored (never on
 * the checkout's or the resume's path), only while that card is still the plan's; the renewal sweep looks
 * up the unknown ones again and warns of a card expiring before the next billing date. The back office's
 * at-risk list reads it too (staff.ts).
 */
import type { SubscriptionRow } from '../../db/schema';
import type { StoredPaymentProfile } from '../../payments/gateway';
import { CARD_EXPIRING_SQL, DUE_BEFORE_SQL, type Queryable } from './plan';

/** A plan's stored card as the expiry lookup and the card heads-up read it. */
export interface PlanCard {
  status: SubscriptionRow['status'];
  profile: StoredPaymentProfile | null;
  /** yyyy-MM-dd, or null while not known. */
  cardExpiresOn: string | null;
  nextBillingDate: Date;
}

export async function findPlanCard(db: Queryable, subscriptionId: string): Promise<PlanCard | null> {
  const { rows } = await db.query<{
    status: SubscriptionRow['status'];
    authnet_customer_profile_id: string | null;
    authnet_payment_profile_id: string | null;
    card_expires_on: string | null;
    next_billing_date: Date;
  }>(
    `select status, authnet_customer_profile_id, authnet_payment_profile_id, card_expires_on::text as card_expires_on, next_billing_date
     from subscriptions where id = $1`,
    [subscriptionId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    status: r.status,
    profile:
      r.authnet_customer_profile_id && r.authnet_payment_profile_id
        ? { customerProfileId: r.authnet_customer_profile_id, paymentProfileId: r.authnet_payment_profile_id }
        : null,
    cardExpiresOn: r.card_expires_on,
    nextBillingDate: r.next_billing_date,
  };
}

/**
 * Records the expiry (yyyy-MM-dd, the last day of the card's month) of the plan's stored card, only while
 * `profile` is still that card: a card looked up just before a resume gave the plan another one writes
 * nothing. Answers whether it was written.
 */
export async function recordCardExpiry(db: Queryable, subscriptionId: string, profile: StoredPaymentProfile, expiresOn: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update subscriptions set card_expires_on = $4::date
     where id = $1 and authnet_customer_profile_id = $2 and authnet_payment_profile_id = $3`,
    [subscriptionId, profile.customerProfileId, profile.paymentProfileId, expiresOn],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Active plans with a stored card whose expiry is not known (a lookup that failed, a running plan from
 * before expiries were kept, a provider that did not say), soonest billing first, at most `limit`: the
 * renewal sweep looks them up again, a bounded number a day.
 */
export async function findPlansWithoutCardExpiry(db: Queryable, limit: number): Promise<Array<{ id: string; paymentProfileId: string }>> {
  const { rows } = await db.query<{ id: string; authnet_payment_profile_id: string }>(
    `select id, authnet_payment_profile_id from subscriptions
     where status = 'active' and card_expires_on is null and authnet_customer_profile_id is not null and authnet_payment_profile_id is not null
     order by next_billing_date, id limit $1`,
    [limit],
  );
  return rows.map((r) => ({ id: r.id, paymentProfileId: r.authnet_payment_profile_id }));
}

/**
 * The renewal sweep's card heads-up: active plans billed on one of the next `days` UTC days (tomorrow to
 * `days` days ahead, as the item heads-up) whose stored card expires before that billing date.
 */
export async function findPlansWithCardExpiringSoon(db: Queryable, days: number): Promise<Array<{ id: string; nextBillingDate: Date; paymentProfileId: string }>> {
  const { rows } = await db.query<{ id: string; next_billing_date: Date; authnet_payment_profile_id: string }>(
    `select s.id, s.next_billing_date, s.authnet_payment_profile_id from subscriptions s
     where s.status = 'active' and s.authnet_payment_profile_id is not null and ${CARD_EXPIRING_SQL}
       and s.next_billing_date >= ${DUE_BEFORE_SQL} and s.next_billing_date < date_trunc('day', now(), 'UTC') + make_interval(days => $1::int + 1)
     order by s.next_billing_date, s.id`,
    [days],
  );
  return rows.map((r) => ({ id: r.id, nextBillingDate: r.next_billing_date, paymentProfileId: r.authnet_payment_profile_id }));
}
