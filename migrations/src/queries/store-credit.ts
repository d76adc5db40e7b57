/**
 * Store credit (issue 23): an append-only ledger per shopper account (`store_credit_entries`) beside
 * the account's balance row (`store_credit_balances`, never negative). Every movement goes through one
 * of the two SQL functions of migration store_credit, which lock the balance row (`FOR UPDATE`) first,
 * so writes of one account are serialised whatever process makes them:
 *
 * - `store_credit_move(user, kind, amount, reason, staff, order, subscription, reference)`: a grant,
 *   refund to credit, spend, reverse or expiry of exactly `amount` cents (positive); refused with
 *   SQLSTATE NH409 when it would take the balance below zero.
 * - `store_credit_spend_up_to(user, max, order, subscription, reference)`: spends what there is, up to
 *   `max` (the checkout's and the renewals' rule: credit before the card); answers what it spent.
 *
 * A movement with a `reference` happens once: a second call with it answers the first row (`replayed`)
 * and moves nothing. A cancelled unpaid order gives its spend back by a trigger on `orders` (the
 * migration), in the statement that cancels it.
 */
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Cents } from '@nh/shared/money';
import type { DbOrTx } from '../db/client';

type Queryable = pg.Pool | pg.PoolClient | pg.ClientBase;

/** SQLSTATE of a movement that would take the balance below zero. */
export const CREDIT_INSUFFICIENT = 'NH409';

export type StoreCreditKind = 'grant' | 'refund' | 'spend' | 'reverse' | 'expire';

export interface CreditMovement {
  userId: string;
  kind: StoreCreditKind;
  /** Positive cents; the ledger signs it by kind. */
  amount: Cents;
  reason: string | null;
  staffId: string | null;
  orderId: string | null;
  subscriptionId: string | null;
  /** Makes the movement happen once (e.g. `refund:<key>`), or null. */
  reference: string | null;
  /** A goodwill grant's expiry (STORE_CREDIT_EXPIRY_DAYS; docs/decisions/store-credit.md, "Expiry"); null or absent: never. */
  expiresAt?: Date | null;
}

export interface CreditEntry {
  id: number;
  kind: StoreCreditKind;
  /** Signed cents: positive adds to the balance, negative takes from it. */
  amount: Cents;
  balanceAfter: Cents;
  reason: string | null;
  staffId: string | null;
  staffName: string | null;
  orderId: string | null;
  subscriptionId: string | null;
  /** A grant's expiry (null: never). */
  expiresAt: Date | null;
  createdAt: Date;
}

export interface MoveResult {
  entryId: number;
  amount: Cents;
  balanceAfter: Cents;
  /** The reference had been used: nothing moved, this is the first movement's row. */
  replayed: boolean;
}

/** Records one movement under the balance row's lock (in the caller's transaction when `db` is one). */
export async function moveCredit(db: Queryable, m: CreditMovement): Promise<MoveResult> {
  const { rows } = await db.query<{ entry_id: string; amount_cents: number; balance_after_cents: number; replayed: boolean }>(
    'select entry_id, amount_cents, balance_after_cents, replayed from store_credit_move($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [m.userId, m.kind, m.amount, m.reason, m.staffId, m.orderId, m.subscriptionId, m.reference, m.expiresAt ?? null],
  );
  const r = rows[0]!;
  return { entryId: Number(r.entry_id), amount: r.amount_cents, balanceAfter: r.balance_after_cents, replayed: r.replayed };
}

/** `moveCredit` inside a drizzle transaction (e.g. beside `recordAudit`). */
export async function moveCreditInTx(tx: DbOrTx, m: CreditMovement): Promise<MoveResult> {
  const { rows } = await tx.execute<{ entry_id: string; amount_cents: number; balance_after_cents: number; replayed: boolean }>(
    sql`select entry_id, amount_cents, balance_after_cents, replayed from store_credit_move(${m.userId}::uuid, ${m.kind}::store_credit_kind, ${m.amount}::integer, ${m.reason}, ${m.staffId}::uuid, ${m.orderId}::uuid, ${m.subscriptionId}::uuid, ${m.reference}, ${m.expiresAt?.toISOString() ?? null}::timestamptz)`,
  );
  const r = rows[0]!;
  return { entryId: Number(r.entry_id), amount: r.amount_cents, balanceAfter: r.balance_after_cents, replayed: r.replayed };
}

/**
 * An order's store credit (in the caller's transaction, after it locked the order): what credit paid
 * of it, and what was refunded to credit for it. The refunds' one rule of "never more than was paid"
 * counts both, whichever way (card or credit) the money goes back.
 */
export async function orderCreditFacts(tx: DbOrTx, orderId: string): Promise<{ applied: Cents; refundedToCredit: Cents }> {
  const { rows } = await tx.execute<{ applied: number; refunded: number }>(
    sql`select (select round(credit_applied * 100)::integer from orders where id = ${orderId}::uuid) as applied,
      (select coalesce(sum(amount_cents), 0)::integer from store_credit_entries where order_id = ${orderId}::uuid and kind = 'refund') as refunded`,
  );
  return { applied: rows[0]?.applied ?? 0, refundedToCredit: rows[0]?.refunded ?? 0 };
}

/** The shopper account an order belongs to (null: a guest's order). */
export async function orderAccount(tx: DbOrTx, orderId: string): Promise<string | null> {
  const { rows } = await tx.execute<{ user_id: string | null }>(sql`select user_id from orders where id = ${orderId}::uuid`);
  return rows[0]?.user_id ?? null;
}

/** Whether a movement with this reference was recorded. */
export async function creditReferenceUsed(tx: DbOrTx, reference: string): Promise<boolean> {
  const { rows } = await tx.execute<{ used: boolean }>(sql`select exists (select 1 from store_credit_entries where reference = ${reference}) as used`);
  return rows[0]?.used ?? false;
}

/** One ledger row with the granting staff member's name. */
export async function findCreditEntry(db: Queryable, entryId: number): Promise<CreditEntry | null> {
  const { rows } = await db.query<EntryRow>(`${ENTRY_SELECT} where e.id = $1`, [entryId]);
  return rows[0] ? toEntry(rows[0]) : null;
}

/** Spends what the account has, up to `max` cents, under the balance row's lock; answers the cents spent (0: none). */
export async function spendCreditUpTo(db: Queryable, s: { userId: string; max: Cents; orderId: string | null; subscriptionId: string | null; reference: string }): Promise<Cents> {
  const { rows } = await db.query<{ spent: number }>('select store_credit_spend_up_to($1, $2, $3, $4, $5) as spent', [s.userId, s.max, s.orderId, s.subscriptionId, s.reference]);
  return rows[0]!.spent;
}

/**
 * Spends the account's credit on an order, up to `max`, and writes what it paid on the order
 * (`credit_applied`), in the caller's transaction: a renewal's pending order, under the plan's lock.
 * One spend per order (its reference); the order cancelled unpaid gives it back (the trigger).
 */
export async function spendCreditOnOrder(db: Queryable, s: { userId: string; orderId: string; subscriptionId: string | null; max: Cents }): Promise<Cents> {
  const { rows } = await db.query<{ spent: number }>(
    `with s as (select store_credit_spend_up_to($1::uuid, $2::integer, $3::uuid, $4::uuid, $5) as spent),
       o as (update orders set credit_applied = s.spent::numeric / 100 from s where orders.id = $3::uuid)
     select spent from s`,
    [s.userId, s.max, s.orderId, s.subscriptionId, orderSpendReference(s.orderId)],
  );
  return rows[0]?.spent ?? 0;
}

/** The reference of an order's spend (one per order, whoever retries). */
export const orderSpendReference = (orderId: string): string => `order:${orderId}:spend`;

/** The account's balance in cents (0 when it never had credit). */
export async function creditBalance(db: Queryable, userId: string): Promise<Cents> {
  const { rows } = await db.query<{ balance_cents: number }>('select balance_cents from store_credit_balances where user_id = $1', [userId]);
  return rows[0]?.balance_cents ?? 0;
}

interface EntryRow {
  id: string;
  kind: StoreCreditKind;
  amount_cents: number;
  balance_after_cents: number;
  reason: string | null;
  staff_id: string | null;
  staff_name: string | null;
  order_id: string | null;
  subscription_id: string | null;
  expires_at: Date | null;
  created_at: Date;
}

const ENTRY_SELECT = `select e.id, e.kind, e.amount_cents, e.balance_after_cents, e.reason, e.staff_id, s.name as staff_name, e.order_id, e.subscription_id, e.expires_at, e.created_at
  from store_credit_entries e left join staff s on s.id = e.staff_id`;

const toEntry = (r: EntryRow): CreditEntry => ({
  id: Number(r.id),
  kind: r.kind,
  amount: r.amount_cents,
  balanceAfter: r.balance_after_cents,
  reason: r.reason,
  staffId: r.staff_id,
  staffName: r.staff_name,
  orderId: r.order_id,
  subscriptionId: r.subscription_id,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

/** The account's ledger, newest first, with the granting staff member's name. */
export async function creditHistory(db: Queryable, userId: string, limit = 100): Promise<CreditEntry[]> {
  const { rows } = await db.query<EntryRow>(`${ENTRY_SELECT} where e.user_id = $1 order by e.id desc limit $2`, [userId, limit]);
  return rows.map(toEntry);
}

/** The shopper account behind a customer id, or null (a guest's id, or none). */
export async function findCreditAccount(db: Queryable, userId: string): Promise<{ id: string; email: string } | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return null;
  const { rows } = await db.query<{ id: string; email: string }>('select id, email from users where id = $1', [userId]);
  return rows[0] ?? null;
}
