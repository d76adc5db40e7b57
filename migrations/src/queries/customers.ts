/**
 * The back office's customers (issue 23): the list, a customer's page, notes and tags. The customers
 * table and its figures are kept by the database (triggers of migration customers; since migration
 * customer_figures_deferred, the figures are recounted by the reports' catch-up, which the list, the
 * customer's page and the privacy export call first), so these only read, except notes and tags. Hand-written SQL through the pool: the list is
 * bench:admin's.
 */
import type { CustomerListQuery } from '@nh/shared/contracts/admin-customers';
import { CUSTOMER_PAGE_SIZE } from '@nh/shared/contracts/admin-customers';
import type { Db, DbOrTx } from '../db/client';
import { customerNotes, customers, type CustomerNoteRow } from '../db/schema';
import { eq, sql } from 'drizzle-orm';
import { catchUpReportSummary } from './report-summary';
import { escapeLike } from './search';

type Queryable = Pick<Db['$client'], 'query'>;

export interface CustomerListRow {
  id: string;
  email: string;
  name: string | null;
  has_account: boolean;
  order_count: number;
  spend_cents: number;
  refunded_cents: number;
  first_order_at: Date | null;
  last_order_at: Date | null;
  tags: string[];
  anonymised_at: Date | null;
  created_at: Date;
}

const COLUMNS = `c.id, c.email, c.name, c.user_id is not null as has_account, c.order_count, c.spend_cents, c.refunded_cents,
  c.first_order_at, c.last_order_at, c.tags, c.anonymised_at, c.created_at`;

const ID_PREFIX = /^[0-9a-f-]+$/i;
/** A whole email address: something@domain.tld, nothing around it. */
const looksLikeEmail = (q: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(q);
/** Hex digits and dashes with a digit, four or more: an order number staff copied (as the order table reads it). */
export const looksLikeOrderId = (q: string): boolean => q.length >= 4 && ID_PREFIX.test(q) && /\d/.test(q);

/** The uuid range of an id prefix (`1a2b` is 1a2b0000-… to 1a2bffff-…), answered from the primary key. */
function idRange(prefix: string): [string, string] | null {
  const hex = prefix.toLowerCase().replace(/-/g, '');
  if (hex.length === 0 || hex.length > 32) return null;
  const asUuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return [asUuid(hex.padEnd(32, '0')), asUuid(hex.padEnd(32, 'f'))];
}

/**
 * One page of customers (one more row is read to tell whether a next page exists). The search is any
 * part of the name or email (the trigram index customers_search_trgm), or an order id prefix (the
 * orders' primary key, then their customers).
 */
export async function listCustomers(db: Db, q: CustomerListQuery): Promise<{ rows: CustomerListRow[]; hasMore: boolean }> {
  await catchUpReportSummary(db.$client, { wait: true });
  const values: unknown[] = [];
  const where: string[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  if (q.q && looksLikeEmail(q.q)) {
    // A whole email address (what staff paste from a customer's message): the unique index, nothing else.
    where.push(`c.email = ${param(q.q.toLowerCase())}`);
  } else if (q.q) {
    const text = `(coalesce(c.name, '') || ' ' || c.email) ilike ${param(`%${escapeLike(q.q)}%`)}`;
    const range = looksLikeOrderId(q.q) ? idRange(q.q) : null;
    if (range) {
      const { rows } = await db.$client.query<{ customer_id: string }>({
        name: 'customers_by_order_prefix',
        text: `select distinct customer_id from (select customer_id from orders where id between $1 and $2 and customer_id is not null limit 200) o`,
        values: range,
      });
      where.push(rows.length ? `(c.id = any(${param(rows.map((r) => r.customer_id))}::uuid[]) or ${text})` : text);
    } else {
      where.push(text);
    }
  }
  if (q.tag) where.push(`c.tags @> array[${param(q.tag)}]::text[]`);
  const order = q.sort === 'spend' ? 'c.spend_cents desc, c.id' : 'c.last_order_at desc nulls last, c.id';
  const limit = param(CUSTOMER_PAGE_SIZE + 1);
  const offset = param((q.page - 1) * CUSTOMER_PAGE_SIZE);
  const filter = where.length ? `where ${where.join(' and ')}` : '';
  // A tag names few customers, but the planner cannot tell from an array and would walk the sort's index
  // past every customer to find them (a tag nobody has: all of them): the tagged ones first (the GIN
  // index), then their page.
  const text = q.tag
    ? `with tagged as materialized (select ${COLUMNS} from customers c ${filter}) select * from tagged c order by ${order} limit ${limit} offset ${offset}`
    : `select ${COLUMNS} from customers c ${filter} order by ${order} limit ${limit} offset ${offset}`;
  const { rows } = await db.$client.query<CustomerListRow>(text, values);
  return { rows: rows.slice(0, CUSTOMER_PAGE_SIZE), hasMore: rows.length > CUSTOMER_PAGE_SIZE };
}

export interface CustomerRowFull extends CustomerListRow {
  user_id: string | null;
  signed_up_at: Date | null;
  newsletter: boolean;
}

/**
 * A customer by id, or by the id it had as a guest before an account took it over. Its figures are as
 * the last catch-up left them: a read that shows them catches up first (`catchUpReportSummary`).
 */
export async function findCustomer(db: Queryable, id: string): Promise<CustomerRowFull | null> {
  const { rows } = await db.query<CustomerRowFull>(
    `select ${COLUMNS}, c.user_id, u.created_at as signed_up_at,
        exists (select 1 from newsletter_subscribers n where lower(n.email) = c.email and n.unsubscribed_at is null) as newsletter
     from customers c left join users u on u.id = c.user_id
     where c.id = $1 or c.guest_id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface CustomerOrderRow {
  id: string;
  created_at: Date;
  status: string;
  total: string;
  refunded: string;
  item_count: number;
  subscription_id: string | null;
  customer_phone: string | null;
}

export interface CustomerRefundRow {
  id: string;
  order_id: string;
  kind: string;
  amount: string;
  reason: string | null;
  created_at: Date;
  staff_name: string | null;
}

export interface CustomerPlanRow {
  id: string;
  status: string;
  amount: string;
  interval: string;
  interval_count: number;
  next_billing_date: Date | null;
  items: Array<{ productName: string; quantity: number }>;
  created_at: Date;
  cancelled_at: Date | null;
}

export interface CustomerReviewRow {
  id: number;
  product_name: string;
  rating: number;
  title: string | null;
  created_at: Date;
  hidden: boolean;
}

export interface CustomerEmailRow {
  kind: string;
  status: string;
  at: Date;
}

export interface CustomerAuditRow {
  id: number;
  at: Date;
  actor_email: string;
  action: string;
  entity_type: string;
  entity_id: string;
  before: unknown;
  after: unknown;
}

export interface CustomerNoteRowOut {
  id: number;
  body: string;
  order_id: string | null;
  staff_name: string;
  at: Date;
}

export interface CustomerRecords {
  orders: CustomerOrderRow[];
  refunds: CustomerRefundRow[];
  plans: CustomerPlanRow[];
  reviews: CustomerReviewRow[];
  emails: CustomerEmailRow[];
  notes: CustomerNoteRowOut[];
  audit: CustomerAuditRow[];
}

/** How many of each kind the page shows at most (newest first). */
export const CUSTOMER_PAGE_LIMITS = { orders: 200, emails: 100, audit: 200, notes: 200, reviews: 100 } as const;

/** Everything the customer's page shows, read in parallel (each by an index of its own). */
export async function customerRecords(db: Db, c: Pick<CustomerRowFull, 'id' | 'email' | 'user_id'>): Promise<CustomerRecords> {
  const q = db.$client;
  const [orders, refunds, plans, reviews, emails, notes] = await Promise.all([
    q.query<CustomerOrderRow>({
      name: 'customer_orders',
      // refunded: to the card, voided and to store credit (the figures' one rule, migration customer_figures_with_credit).
      text: `select o.id, o.created_at, o.status, o.total::text, (coalesce(g.amount, 0) + coalesce(s.cents, 0) / 100.0)::numeric(12, 2)::text as refunded, o.subscription_id, o.customer_phone,
          (select coalesce(sum((i->>'quantity')::int), 0) from jsonb_array_elements(o.items) i)::int as item_count
        from orders o
        left join lateral (select sum(p.amount) as amount from payment_transactions p
          where p.order_id = o.id and p.kind in ('refund', 'void') and p.status = 'approved') g on true
        left join lateral (select sum(e.amount_cents) as cents from store_credit_entries e where e.order_id = o.id and e.kind = 'refund') s on true
        where o.customer_id = $1 order by o.created_at desc limit ${CUSTOMER_PAGE_LIMITS.orders}`,
      values: [c.id],
    }),
    q.query<CustomerRefundRow>({
      name: 'customer_refunds',
      text: `select p.id, p.order_id, p.kind, p.amount::text, p.reason, p.created_at, s.name as staff_name
        from orders o join payment_transactions p on p.order_id = o.id
        left join staff s on s.id = p.staff_id
        where o.customer_id = $1 and p.kind in ('refund', 'void') and p.status = 'approved' order by p.created_at desc`,
      values: [c.id],
    }),
    q.query<CustomerPlanRow>({
      name: 'customer_plans',
      text: `select s.id, s.status, s.amount::text, s.interval, s.interval_count, s.next_billing_date, s.items, s.created_at, s.cancelled_at
        from subscriptions s
        where s.id in (select x.id from subscriptions x where x.user_id = $2
                       union select o.subscription_id from orders o where o.customer_id = $1 and o.subscription_id is not null)
        order by s.created_at desc`,
      values: [c.id, c.user_id],
    }),
    q.query<CustomerReviewRow>({
      name: 'customer_reviews',
      text: `select r.id, p.name as product_name, r.rating, r.title, r.created_at, r.hidden_at is not null as hidden
        from reviews r join products p on p.id = r.product_id
        where lower(r.customer_email) = $1 order by r.created_at desc limit ${CUSTOMER_PAGE_LIMITS.reviews}`,
      values: [c.email],
    }),
    q.query<CustomerEmailRow>({
      name: 'customer_emails',
      text: `select kind, status, coalesce(sent_at, created_at) as at from email_log
        where lower(to_address) = $1 order by created_at desc limit ${CUSTOMER_PAGE_LIMITS.emails}`,
      values: [c.email],
    }),
    q.query<CustomerNoteRowOut>({
      name: 'customer_notes_of',
      text: `select id, body, order_id, staff_name, at from customer_notes where customer_id = $1 order by at desc, id desc limit ${CUSTOMER_PAGE_LIMITS.notes}`,
      values: [c.id],
    }),
  ]);
  const entities: Array<[string, string]> = [
    ['customer', c.id],
    ...orders.rows.map((o): [string, string] => ['order', o.id]),
    ...plans.rows.map((p): [string, string] => ['subscription', p.id]),
  ];
  const audit = await q.query<CustomerAuditRow>({
    name: 'customer_audit',
    text: `select a.id, a.at, a.actor_email, a.action, a.entity_type, a.entity_id, a.before, a.after
      from unnest($1::text[], $2::text[]) as e(entity_type, entity_id)
      cross join lateral (select * from audit_events x where x.entity_type = e.entity_type and x.entity_id = e.entity_id order by x.at desc limit ${CUSTOMER_PAGE_LIMITS.audit}) a
      order by a.at desc, a.id desc limit ${CUSTOMER_PAGE_LIMITS.audit}`,
    values: [entities.map((e) => e[0]), entities.map((e) => e[1])],
  });
  return { orders: orders.rows, refunds: refunds.rows, plans: plans.rows, reviews: reviews.rows, emails: emails.rows, notes: notes.rows, audit: audit.rows };
}

/** The customer of an order (set by the database when the order was written), or null for no such order. */
export async function orderCustomerId(db: DbOrTx, orderId: string): Promise<{ customerId: string | null } | null> {
  const rows = await db.execute<{ customer_id: string | null }>(sql`select customer_id from orders where id = ${orderId}`);
  const row = rows.rows[0];
  return row ? { customerId: row.customer_id } : null;
}

export async function insertCustomerNote(tx: DbOrTx, note: typeof customerNotes.$inferInsert): Promise<CustomerNoteRow> {
  const [row] = await tx.insert(customerNotes).values(note).returning();
  return row!;
}

/** The notes written on an order (the admin order page). */
export async function orderNotes(db: DbOrTx, orderId: string): Promise<CustomerNoteRow[]> {
  return db.select().from(customerNotes).where(eq(customerNotes.orderId, orderId)).orderBy(sql`${customerNotes.at} desc, ${customerNotes.id} desc`);
}

export async function setCustomerTags(tx: DbOrTx, id: string, tags: string[]): Promise<void> {
  await tx.update(customers).set({ tags }).where(eq(customers.id, id));
}

/** The customer's tags, the row locked for a change of them. */
export async function lockCustomerTags(tx: DbOrTx, id: string): Promise<{ tags: string[] } | null> {
  const [row] = await tx.select({ tags: customers.tags }).from(customers).where(eq(customers.id, id)).for('update');
  return row ?? null;
}

/**
 * Whether the account proved it holds its email: it signed in with an emailed code, or set its password
 * from an emailed reset link, sent to the email it has now.
 */
export async function accountEmailVerified(db: DbOrTx, userId: string, email: string): Promise<boolean> {
  const rows = await db.execute<{ verified: boolean }>(sql`select exists (select 1 from sign_in_codes where user_id = ${userId} and lower(email) = ${email} and used_at is not null)
      or exists (select 1 from shopper_tokens where user_id = ${userId} and purpose in ('password_reset', 'email_change') and lower(email) = ${email} and used_at is not null) as verified`);
  return rows.rows[0]?.verified ?? false;
}

/** Gives the account the guest orders of its customer (orders of its email placed without signing in); answers their ids. */
export async function mergeGuestOrders(tx: DbOrTx, customerId: string, userId: string): Promise<string[]> {
  const rows = await tx.execute<{ id: string }>(sql`update orders set user_id = ${userId}, updated_at = now() where customer_id = ${customerId} and user_id is null returning id`);
  return rows.rows.map((r) => r.id);
}
