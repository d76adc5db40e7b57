/**
 * Damage claims (issue 23; docs/decisions/claims.md): the claim rows, what an order's lines have left to
 * claim, the $0 replacement order (inserted as paid, its stock taken by the one stock rule, its
 * `order.placed` outbox row written by the caller in the same transaction), the staff queue, the owner's
 * auto-approval rule and the claim figures by product and reason.
 */
import { and, desc, eq, gte, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Db } from '../db/client';
import { claims, claimSettings, orders, staff, type ClaimLine, type ClaimRow, type LineItem, type OrderRow } from '../db/schema';

/** The order a claim is made on, locked for the claim (two claims of one order take turns). */
export async function lockOrderForClaim(tx: DbOrTx, orderId: string, storeCode?: string): Promise<OrderRow | null> {
  const where = storeCode === undefined ? eq(orders.id, orderId) : and(eq(orders.id, orderId), eq(orders.storeCode, storeCode));
  const [row] = await tx.select().from(orders).where(where).for('update');
  return row ?? null;
}

/** Whether the order exists (a photo is uploaded for an order before its claim is made). */
export async function orderExists(db: DbOrTx, orderId: string): Promise<boolean> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  return row !== undefined;
}

export async function findClaimByKey(db: DbOrTx, orderId: string, key: string): Promise<ClaimRow | null> {
  const [row] = await db.select().from(claims).where(and(eq(claims.orderId, orderId), eq(claims.idempotencyKey, key)));
  return row ?? null;
}

export async function findClaimRow(db: DbOrTx, id: string): Promise<ClaimRow | null> {
  const [row] = await db.select().from(claims).where(eq(claims.id, id));
  return row ?? null;
}

/** The claim row locked (approve and decline take turns on one claim). */
export async function lockClaim(tx: DbOrTx, id: string): Promise<ClaimRow | null> {
  const [row] = await tx.select().from(claims).where(eq(claims.id, id)).for('update');
  return row ?? null;
}

/** How many of each of the order's lines earlier claims (not declined) claimed: line index → quantity. */
export async function claimedQuantities(tx: DbOrTx, orderId: string): Promise<Map<number, number>> {
  const rows = await tx.select({ lines: claims.lines }).from(claims).where(and(eq(claims.orderId, orderId), ne(claims.status, 'declined')));
  const claimed = new Map<number, number>();
  for (const { lines } of rows) for (const l of lines) claimed.set(l.line, (claimed.get(l.line) ?? 0) + l.quantity);
  return claimed;
}

export type NewClaim = Pick<ClaimRow, 'orderId' | 'idempotencyKey' | 'source' | 'lines' | 'reason' | 'note' | 'photoKey' | 'status' | 'resolution' | 'amountCents' | 'staffId' | 'decisionNote' | 'decidedAt'>;

export async function insertClaim(tx: DbOrTx, claim: NewClaim): Promise<ClaimRow> {
  const [row] = await tx.insert(claims).values(claim).returning();
  return row!;
}

export async function updateClaim(tx: DbOrTx, id: string, patch: Partial<Pick<ClaimRow, 'status' | 'resolution' | 'replacementOrderId' | 'staffId' | 'decisionNote' | 'decidedAt'>>): Promise<ClaimRow> {
  const [row] = await tx.update(claims).set(patch).where(eq(claims.id, id)).returning();
  return row!;
}

/**
 * The $0 replacement of `original`'s claimed lines: the same customer, account and shipping address, each
 * line at 0.00, paid ('processing': nothing to charge), naming the order it replaces. The caller takes the
 * stock and writes the `order.placed` outbox row in the same transaction.
 */
export async function insertReplacementOrder(tx: DbOrTx, original: OrderRow, items: LineItem[]): Promise<string> {
  const [row] = await tx
    .insert(orders)
    .values({
      storeCode: original.storeCode,
      userId: original.userId,
      customerEmail: original.customerEmail,
      customerName: original.customerName,
      customerPhone: original.customerPhone,
      shippingAddress: original.shippingAddress,
      billingAddress: original.billingAddress,
      items,
      subtotal: 0,
      discount: 0,
      subscribeDiscount: 0,
      promoDiscount: 0,
      shipping: 0,
      tax: 0,
      total: 0,
      status: 'processing',
      customerNotes: `Replacement for order ${original.id}`,
      replacementOfOrderId: original.replacementOfOrderId ?? original.id,
    })
    .returning({ id: orders.id });
  return row!.id;
}

/** A claim with what the queue shows beside it: the order's customer and lines, the staff member's email. */
export interface ClaimListRow {
  claim: ClaimRow;
  customerEmail: string;
  customerName: string;
  orderItems: LineItem[];
  staffEmail: string | null;
}

const claimColumns = { claim: claims, customerEmail: orders.customerEmail, customerName: orders.customerName, orderItems: orders.items, staffEmail: staff.email };

/** The queue: newest first, of one status or all, at most `limit`. */
export async function listClaims(db: Db, status: ClaimRow['status'] | undefined, limit = 200): Promise<ClaimListRow[]> {
  return db
    .select(claimColumns)
    .from(claims)
    .innerJoin(orders, eq(orders.id, claims.orderId))
    .leftJoin(staff, eq(staff.id, claims.staffId))
    .where(status ? eq(claims.status, status) : undefined)
    .orderBy(desc(claims.createdAt))
    .limit(limit);
}

export async function findClaim(db: Db, id: string): Promise<ClaimListRow | null> {
  const [row] = await db.select(claimColumns).from(claims).innerJoin(orders, eq(orders.id, claims.orderId)).leftJoin(staff, eq(staff.id, claims.staffId)).where(eq(claims.id, id));
  return row ?? null;
}

/** The claims of one order, oldest first. */
export async function orderClaims(db: Db, orderId: string): Promise<ClaimRow[]> {
  return db.select().from(claims).where(eq(claims.orderId, orderId)).orderBy(claims.createdAt);
}

/**
 * Claims not declined on any order of the same customer (the order's `customer_id`: account or email),
 * made since `since`, other than `exceptClaimId`: the "first claim in N months" of the auto-approval rule.
 */
export async function earlierCustomerClaims(tx: DbOrTx, customerId: string | null, customerEmail: string, since: Date, exceptClaimId: string): Promise<number> {
  const who = customerId ? eq(orders.customerId, customerId) : sql`lower(${orders.customerEmail}) = lower(${customerEmail})`;
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(claims)
    .innerJoin(orders, eq(orders.id, claims.orderId))
    .where(and(who, ne(claims.status, 'declined'), gte(claims.createdAt, since), ne(claims.id, exceptClaimId)));
  return row?.n ?? 0;
}

export type ClaimSettingsRow = typeof claimSettings.$inferSelect;

export async function readClaimSettings(db: DbOrTx): Promise<ClaimSettingsRow> {
  const [row] = await db.select().from(claimSettings).where(eq(claimSettings.id, 1));
  return row ?? { id: 1, autoApprove: false, maxAmountCents: 2500, windowMonths: 12, updatedAt: new Date(0) };
}

export async function writeClaimSettings(tx: DbOrTx, s: Pick<ClaimSettingsRow, 'autoApprove' | 'maxAmountCents' | 'windowMonths'>): Promise<ClaimSettingsRow> {
  const [row] = await tx
    .insert(claimSettings)
    .values({ id: 1, ...s, updatedAt: new Date() })
    .onConflictDoUpdate({ target: claimSettings.id, set: { ...s, updatedAt: new Date() } })
    .returning();
  return row!;
}

/** Claim figures over [from, to): units claimed against units sold by product, and claims by reason. */
export async function claimFigures(db: Db, from: Date, to: Date) {
  const byProduct = await db.$client.query<{ product_id: number | null; product_name: string; sold: number; claimed: number }>(
    `with sold as (
       select (li->>'productId')::int as product_id, max(li->>'productName') as product_name, sum((li->>'quantity')::int)::int as sold
       from orders o cross join jsonb_array_elements(o.items) li
       where o.created_at >= $1 and o.created_at < $2 and o.status <> 'cancelled' and o.replacement_of_order_id is null
       group by 1),
     claimed as (
       select (o.items->((cl->>'line')::int)->>'productId')::int as product_id, max(o.items->((cl->>'line')::int)->>'productName') as product_name,
              sum((cl->>'quantity')::int)::int as claimed
       from claims c join orders o on o.id = c.order_id cross join jsonb_array_elements(c.lines) cl
       where c.created_at >= $1 and c.created_at < $2 and c.status <> 'declined'
       group by 1)
     select c.product_id, coalesce(c.product_name, s.product_name, 'Unknown product') as product_name, coalesce(s.sold, 0) as sold, c.claimed
     from claimed c left join sold s on s.product_id is not distinct from c.product_id
     order by c.claimed desc, 2 limit 50`,
    [from, to],
  );
  const byReason = await db.$client.query<{ reason: string; claims: number }>(
    `select reason, count(*)::int as claims from claims where created_at >= $1 and created_at < $2 and status <> 'declined' group by reason order by 2 desc, 1`,
    [from, to],
  );
  return { byProduct: byProduct.rows, byReason: byReason.rows };
}

export type { ClaimLine };

/**
 * Of these photo keys, the ones a claim names (housekeeping keeps those): one statement per batch of a
 * listing. Claims are few (a support queue), so the scan of `claims` this makes stays small.
 */
export async function claimedPhotoKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await db.$client.query<{ photo_key: string }>('select photo_key from claims where photo_key = any($1::text[])', [keys]);
  return new Set(rows.map((r) => r.photo_key));
}
