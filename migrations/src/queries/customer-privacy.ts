/**
 * Privacy requests on a customer (issue 23): everything held about them, as JSON; and anonymising them
 * (personal fields replaced everywhere they are kept: customer, account, orders, plans, email log,
 * reviews, newsletter, staff notes, audit details, a failed NetSuite sync's payload, stored checkout
 * answers), keeping orders, payments, totals, the audit rows themselves and NetSuite's ids.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

const rowsOf = async <T = Record<string, unknown>>(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> => (await tx.execute(query)).rows as T[];

/** The entities (type, id) whose audit rows are the customer's: the customer, their orders, plans and reviews. */
async function customerEntities(tx: DbOrTx, id: string, email: string, userId: string | null): Promise<{ orders: string[]; plans: string[]; reviews: string[] }> {
  // One after another: a transaction is one connection.
  const orders = await rowsOf<{ id: string }>(tx, sql`select id from orders where customer_id = ${id}`);
  const plans = await rowsOf<{ id: string }>(tx, sql`select id from subscriptions where user_id = ${userId} union select subscription_id from orders where customer_id = ${id} and subscription_id is not null`);
  const reviews = await rowsOf<{ id: number }>(tx, sql`select id from reviews where lower(customer_email) = ${email}`);
  return { orders: orders.map((r) => r.id), plans: plans.map((r) => r.id), reviews: reviews.map((r) => String(r.id)) };
}

const auditScope = (id: string, e: { orders: string[]; plans: string[]; reviews: string[] }) => sql`(
  (entity_type = 'customer' and entity_id = ${id})
  or (entity_type = 'order' and entity_id = any(${sql.param(e.orders)}::text[]))
  or (entity_type = 'subscription' and entity_id = any(${sql.param(e.plans)}::text[]))
  or (entity_type = 'review' and entity_id = any(${sql.param(e.reviews)}::text[])))`;

/** Everything held about the customer (no secret: password hashes, token and code hashes, card profiles are left out). */
export async function customerExport(tx: DbOrTx, c: { id: string; email: string; userId: string | null }): Promise<Record<string, unknown>> {
  const e = await customerEntities(tx, c.id, c.email, c.userId);
  const customer = await rowsOf(tx, sql`select id, email, name, guest_id, order_count, spend_cents, refunded_cents, first_order_at, last_order_at, tags, anonymised_at, created_at from customers where id = ${c.id}`);
  const account = await rowsOf(tx, sql`select id, email, first_name, last_name, profile_image_url, created_at, updated_at from users where id = ${c.userId}`);
  const orders = await rowsOf(tx, sql`select id, store_code, user_id, customer_email, customer_name, customer_phone, shipping_address, billing_address, items, subtotal::text, discount::text,
        shipping::text, tax::text, total::text, promo_code, status, tracking_number, carrier, delivered_date, customer_notes, subscription_id, created_at, updated_at, netsuite_order_id
      from orders where customer_id = ${c.id} order by created_at`);
  const payments = await rowsOf(tx, sql`select id, order_id, subscription_id, kind, amount::text, status, response_message, card_type, card_last_four, billing_period, reason, created_at
      from payment_transactions where order_id = any(${sql.param(e.orders)}::uuid[]) or subscription_id = any(${sql.param(e.plans)}::uuid[]) order by created_at`);
  const plans = await rowsOf(tx, sql`select id, customer_email, customer_name, items, interval, interval_count, amount::text, next_billing_date, status, shipping_address, card_type, card_last_four,
        created_at, cancelled_at from subscriptions where id = any(${sql.param(e.plans)}::uuid[]) order by created_at`);
  const cancellations = await rowsOf(tx, sql`select subscription_id, at, actor, reason, comment from subscription_cancellations where subscription_id = any(${sql.param(e.plans)}::uuid[]) order by at`);
  const emails = await rowsOf(tx, sql`select kind, subject_id, to_address, status, created_at, sent_at from email_log where lower(to_address) = ${c.email} order by created_at`);
  const reviews = await rowsOf(tx, sql`select r.id, p.name as product, r.customer_name, r.customer_email, r.rating, r.title, r.comment, r.created_at from reviews r join products p on p.id = r.product_id where lower(r.customer_email) = ${c.email}`);
  const newsletter = await rowsOf(tx, sql`select email, subscribed_at, unsubscribed_at from newsletter_subscribers where lower(email) = ${c.email}`);
  const notes = await rowsOf(tx, sql`select id, order_id, body, staff_name, at from customer_notes where customer_id = ${c.id} order by at`);
  const audit = await rowsOf(tx, sql`select id, at, actor_email, action, entity_type, entity_id, before, after from audit_events where ${auditScope(c.id, e)} order by id`);
  return { customer: customer[0] ?? null, account: account[0] ?? null, orders, payments, subscriptions: plans, cancellations, emails, reviews, newsletter, notes, audit };
}

/** A text as a PostgreSQL regular expression matching it literally, as it is written inside JSON text. */
const literalPattern = (text: string) => JSON.stringify(text).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, (ch) => `\\${ch}`);

export interface AnonymiseResult {
  orders: number;
  plans: number;
  emails: number;
  reviews: number;
  auditRows: number;
}

/**
 * Replaces the customer's personal fields everywhere (in the caller's transaction, plans already
 * cancelled): `replacement` is the address that takes the email's place, `removed` the word that takes
 * the place of names, phones and addresses in free text and JSON.
 */
export async function anonymiseCustomerRows(tx: DbOrTx, c: { id: string; email: string; userId: string | null }, replacement: string, removed: string): Promise<AnonymiseResult> {
  const e = await customerEntities(tx, c.id, c.email, c.userId);
  // The personal values to look for in free text and JSON (names, phones, street lines, cities, ZIP codes).
  const found = await rowsOf<{ v: string | null }>(
    tx,
    sql`select distinct v from (
        select customer_name as v from orders where customer_id = ${c.id}
        union all select customer_phone from orders where customer_id = ${c.id}
        union all select a->>k from orders o, lateral (values (o.shipping_address), (o.billing_address)) x(a), unnest(array['address', 'city', 'zip']) k where o.customer_id = ${c.id}
        union all select customer_name from subscriptions where id = any(${sql.param(e.plans)}::uuid[])
        union all select shipping_address->>k from subscriptions, unnest(array['address', 'city', 'zip']) k where id = any(${sql.param(e.plans)}::uuid[])
        union all select concat_ws(' ', first_name, last_name) from users where id = ${c.userId}
        union all select name from customers where id = ${c.id}
        union all select customer_name from reviews where lower(customer_email) = ${c.email}) s
      where v is not null and length(btrim(v)) >= 3`,
  );
  const values = [...new Set(found.map((r) => r.v!.trim()))].sort((a, b) => b.length - a.length);
  const emailPattern = literalPattern(c.email);
  // Whole values only: not inside a longer word or number (a lookbehind and a lookahead, so `+1 555 …` matches too).
  const othersPattern = values.length ? `(?<![[:alnum:]])(${values.map(literalPattern).join('|')})(?![[:alnum:]])` : null;
  const scrub = (expr: ReturnType<typeof sql>) =>
    othersPattern
      ? sql`regexp_replace(regexp_replace(${expr}, ${emailPattern}, ${replacement}, 'gi'), ${othersPattern}, ${removed}, 'gi')`
      : sql`regexp_replace(${expr}, ${emailPattern}, ${replacement}, 'gi')`;
  const scrubJson = (column: ReturnType<typeof sql>) => sql`(${scrub(sql`${column}::text`)})::jsonb`;
  const removedAddress = sql`jsonb_build_object('address', ${removed}::text, 'city', ${removed}::text, 'zip', ${removed}::text)`;

  await tx.execute(sql`update customers set email = ${replacement}, name = ${removed}, anonymised_at = now() where id = ${c.id}`);
  if (c.userId) {
    await tx.execute(sql`update users set email = ${replacement}, first_name = null, last_name = null, profile_image_url = null, password_hash = null, updated_at = now() where id = ${c.userId}`);
    await tx.execute(sql`delete from sessions where sess->>'userId' = ${c.userId}`);
  }
  await tx.execute(sql`delete from shopper_tokens where lower(email) = ${c.email} or user_id = ${c.userId}`);
  await tx.execute(sql`delete from sign_in_codes where lower(email) = ${c.email} or user_id = ${c.userId}`);
  const orders = await tx.execute(sql`update orders set customer_email = ${replacement}, customer_name = ${removed}, customer_phone = null, customer_notes = null,
      shipping_address = shipping_address || ${removedAddress},
      billing_address = case when billing_address is null then null else billing_address || ${removedAddress} end
    where customer_id = ${c.id}`);
  const plans = await tx.execute(sql`update subscriptions set customer_email = ${replacement}, customer_name = ${removed},
      shipping_address = case when shipping_address is null then null else shipping_address || ${removedAddress} end
    where id = any(${sql.param(e.plans)}::uuid[])`);
  await tx.execute(sql`update plan_card_links set email = ${replacement} where subscription_id = any(${sql.param(e.plans)}::uuid[])`);
  await tx.execute(sql`update subscription_cancellations set comment = ${scrub(sql`comment`)} where subscription_id = any(${sql.param(e.plans)}::uuid[]) and comment is not null`);
  const emails = await tx.execute(sql`update email_log set to_address = ${replacement} where lower(to_address) = ${c.email}`);
  const reviews = await tx.execute(sql`update reviews set customer_email = ${replacement}, customer_name = ${removed} where id = any(${sql.param(e.reviews.map(Number))}::int[])`);
  await tx.execute(sql`update newsletter_subscribers set email = ${replacement}, unsubscribed_at = coalesce(unsubscribed_at, now()) where lower(email) = ${c.email}`);
  await tx.execute(sql`update customer_notes set body = ${scrub(sql`body`)} where customer_id = ${c.id}`);
  await tx.execute(sql`update netsuite_failed_syncs set payload = ${scrubJson(sql`payload`)}, error_message = ${scrub(sql`coalesce(error_message, '')`)} where order_id = any(${sql.param(e.orders)}::uuid[])`);
  await tx.execute(sql`update idempotency_keys set response = ${scrubJson(sql`response`)} where order_id = any(${sql.param(e.orders)}::uuid[]) and response is not null`);
  // The audit rows keep who did what and when; only personal values inside their details are replaced.
  await tx.execute(sql`set local nh.audit_redaction = 'on'`);
  const audit = await tx.execute(sql`update audit_events set before = ${scrubJson(sql`before`)}, after = ${scrubJson(sql`after`)}
    where (${auditScope(c.id, e)} or before::text ilike ${`%${c.email}%`} or after::text ilike ${`%${c.email}%`})
      and (before is not null or after is not null)`);
  await tx.execute(sql`set local nh.audit_redaction = 'off'`);
  return { orders: orders.rowCount ?? 0, plans: plans.rowCount ?? 0, emails: emails.rowCount ?? 0, reviews: reviews.rowCount ?? 0, auditRows: audit.rowCount ?? 0 };
}

/** The customer's plans still open (active or paused), locked, for cancelling before anonymising. */
export async function openPlansOf(tx: DbOrTx, c: { id: string; userId: string | null }): Promise<Array<{ id: string; status: string }>> {
  return rowsOf(
    tx,
    sql`select id, status from subscriptions where id in (select x.id from subscriptions x where x.user_id = ${c.userId}
        union select o.subscription_id from orders o where o.customer_id = ${c.id} and o.subscription_id is not null)
      and status in ('active', 'paused') order by id for update`,
  );
}

/** Cancels plans at once (a privacy request: nobody is emailed, the address is going away). */
export async function cancelPlansForPrivacy(tx: DbOrTx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`update subscriptions set status = 'cancelled', cancelled_at = now(), retry_at = null, resumes_on = null, updated_at = now() where id = any(${sql.param(ids)}::uuid[])`);
  await tx.execute(sql`insert into subscription_cancellations (subscription_id, actor, reason, comment) select unnest(${sql.param(ids)}::uuid[]), 'staff', null, 'Privacy request: customer anonymised'`);
}
