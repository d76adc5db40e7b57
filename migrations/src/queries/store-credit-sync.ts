/**
 * Store credit in NetSuite (issue 23; docs/decisions/store-credit.md, "NetSuite"): what the sync of one
 * ledger entry reads (the movement, its account's and its order's customer) and writes back
 * (`store_credit_netsuite_syncs`: synced with the records made, failed with the error, or not
 * configured). Every grant, refund to credit and expiry gets its `store-credit.recorded` outbox row from
 * the ledger's insert trigger (migration store_credit_netsuite), in the movement's own transaction.
 */
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { StoreCreditKind } from './store-credit';

type Queryable = pg.Pool | pg.PoolClient | pg.ClientBase;

/** The kinds of movement NetSuite is told of (spends travel with their order, as a customer deposit). */
export const NETSUITE_CREDIT_KINDS = ['grant', 'refund', 'expire'] as const satisfies readonly StoreCreditKind[];
export type NetSuiteCreditKind = (typeof NETSUITE_CREDIT_KINDS)[number];

export interface CreditEntryForSync {
  id: string;
  kind: StoreCreditKind;
  /** Positive cents (the ledger's amount without its sign). */
  amountCents: number;
  reason: string | null;
  orderId: string | null;
  /** yyyy-MM-dd (UTC) of the movement. */
  tranDate: string;
  /** The customer NetSuite knows: the order's (a refund to credit of it), else the account's. */
  email: string;
  name: string;
  phone: string | null;
  /**
   * A refund to credit's order as its tax part needs it (issue 25): the order's tax and total in cents, where
   * it shipped and which rule taxed it; null for a grant or an expiry.
   */
  order: { taxCents: number; totalCents: number; state: string | null; zip: string | null; taxSource: string | null } | null;
  /** Set once an earlier sync recorded its outcome. */
  syncStatus: string | null;
  netsuiteRecords: Record<string, string> | null;
}

export async function loadCreditEntryForSync(db: Queryable, entryId: string): Promise<CreditEntryForSync | null> {
  const { rows } = await db.query<CreditEntryForSync>(
    `select e.id::text as id, e.kind, abs(e.amount_cents)::int as "amountCents", e.reason, e.order_id as "orderId",
       to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD') as "tranDate",
       coalesce(o.customer_email, u.email) as email,
       coalesce(o.customer_name, nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email) as name,
       o.customer_phone as phone,
       case when o.id is null then null else json_build_object('taxCents', (o.tax * 100)::int, 'totalCents', (o.total * 100)::int,
         'state', o.shipping_address->>'state', 'zip', o.shipping_address->>'zip', 'taxSource', o.tax_source) end as "order",
       s.status as "syncStatus", s.netsuite_records as "netsuiteRecords"
     from store_credit_entries e
     join users u on u.id = e.user_id
     left join orders o on o.id = e.order_id and e.kind = 'refund'
     left join store_credit_netsuite_syncs s on s.entry_id = e.id
     where e.id = $1::bigint`,
    [entryId],
  );
  return rows[0] ?? null;
}

export interface CreditSyncOutcome {
  status: 'synced' | 'failed' | 'not_configured';
  netsuiteCustomerId?: string | null;
  netsuiteRecords?: Record<string, string> | null;
  error?: string | null;
}

/** Records the outcome of a sync attempt of one entry (each attempt counts). */
export async function recordCreditSync(db: Queryable, entryId: string, outcome: CreditSyncOutcome): Promise<void> {
  await db.query(
    `insert into store_credit_netsuite_syncs (entry_id, status, netsuite_customer_id, netsuite_records, error, attempts)
     values ($1::bigint, $2, $3, $4::jsonb, $5, 1)
     on conflict (entry_id) do update set status = excluded.status,
       netsuite_customer_id = coalesce(excluded.netsuite_customer_id, store_credit_netsuite_syncs.netsuite_customer_id),
       netsuite_records = coalesce(excluded.netsuite_records, store_credit_netsuite_syncs.netsuite_records),
       error = excluded.error, attempts = store_credit_netsuite_syncs.attempts + 1, updated_at = now()`,
    [entryId, outcome.status, outcome.netsuiteCustomerId ?? null, outcome.netsuiteRecords ? JSON.stringify(outcome.netsuiteRecords) : null, outcome.error ?? null],
  );
}

export interface FailedCreditSyncRow {
  entryId: string;
  kind: StoreCreditKind;
  amountCents: number;
  userId: string;
  email: string;
  error: string | null;
  attempts: number;
  lastAttemptAt: Date;
  createdAt: Date;
}

/** Movements whose NetSuite sync failed for good (after the job's last attempt), newest failure first. */
export async function listFailedCreditSyncs(db: Queryable, limit = 200): Promise<FailedCreditSyncRow[]> {
  const { rows } = await db.query<FailedCreditSyncRow>(
    `select e.id::text as "entryId", e.kind, abs(e.amount_cents)::int as "amountCents", e.user_id as "userId", u.email,
       s.error, s.attempts, s.updated_at as "lastAttemptAt", e.created_at as "createdAt"
     from store_credit_netsuite_syncs s
     join store_credit_entries e on e.id = s.entry_id
     join users u on u.id = e.user_id
     where s.status = 'failed'
     order by s.updated_at desc
     limit $1`,
    [limit],
  );
  return rows;
}

/**
 * A staff retry of one movement's sync, in the caller's transaction: its sync row locked (or made) and
 * set back to pending when the movement is one NetSuite is told of and not yet synced. Answers the
 * movement (its kind and account) and the sync status before, or null when there is no such movement.
 */
export async function resetCreditSync(tx: DbOrTx, entryId: string): Promise<{ kind: StoreCreditKind; userId: string; before: string | null } | null> {
  const entry = (await tx.execute<{ kind: StoreCreditKind; userId: string }>(sql`select kind, user_id as "userId" from store_credit_entries where id = ${entryId}::bigint`)).rows[0];
  if (!entry) return null;
  const locked = await tx.execute<{ status: string }>(sql`select status from store_credit_netsuite_syncs where entry_id = ${entryId}::bigint for update`);
  const before = locked.rows[0]?.status ?? null;
  if (before !== 'synced' && (NETSUITE_CREDIT_KINDS as readonly string[]).includes(entry.kind)) {
    await tx.execute(
      sql`insert into store_credit_netsuite_syncs (entry_id, status, attempts) values (${entryId}::bigint, 'pending', 0)
        on conflict (entry_id) do update set status = 'pending', error = null, updated_at = now()`,
    );
  }
  return { ...entry, before };
}
