/**
 * Ship now (issue 21): the record of each delivery a shopper or staff asked to ship today
 * (subscription_ship_nows: unique per plan and period, and per plan and Idempotency-Key hash), read under
 * the plan's lock by the change (changes.ts lockPlanForChange), and counted by the learning cadence.
 * One-time add-ons' catalogue reads are here too (the renewal prices them on the day it charges).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { paymentTransactions, subscriptionShipNows } from '../../db/schema';
import type { Db } from '../../db/client';
import type { LineItem, OneTimeLine, SubscriptionRow } from '../../db/schema';
import { centsToDecimal, toCents } from '@nh/shared/money';
import { taxCodeOf } from '../../db/catalogue-line';
import { recordOutbox } from '../outbox';
import { changeLockedPlan, type LockedPlan, type PlanChangeDecision } from './changes';
import { unavailableItemsOf, type Queryable } from './plan';
import type { UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';

/** The ship-now asked with this key hash (SHA-256 of the Idempotency-Key), if any. */
export async function findShipNowByKey(tx: DbOrTx, subscriptionId: string, keyHash: string): Promise<{ billingPeriod: string } | null> {
  const [row] = await tx
    .select({ billingPeriod: subscriptionShipNows.billingPeriod })
    .from(subscriptionShipNows)
    .where(and(eq(subscriptionShipNows.subscriptionId, subscriptionId), eq(subscriptionShipNows.keyHash, keyHash)));
  return row ?? null;
}

/** A ship-now was asked for this period of the plan. */
export async function shipNowAskedFor(tx: DbOrTx, subscriptionId: string, period: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: subscriptionShipNows.id })
    .from(subscriptionShipNows)
    .where(and(eq(subscriptionShipNows.subscriptionId, subscriptionId), eq(subscriptionShipNows.billingPeriod, period)));
  return Boolean(row);
}

/** The plan's charge for `period` was approved (or approved then refunded): a delivery of that day was charged. */
export async function periodCharged(tx: DbOrTx, subscriptionId: string, period: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: paymentTransactions.id })
    .from(paymentTransactions)
    .where(
      and(
        eq(paymentTransactions.subscriptionId, subscriptionId),
        eq(paymentTransactions.billingPeriod, period),
        eq(paymentTransactions.kind, 'charge'),
        sql`${paymentTransactions.status} in ('approved', 'refunded')`,
      ),
    );
  return Boolean(row);
}

export interface ShipNowRecord {
  subscriptionId: string;
  period: string;
  keyHash: string;
  /** Who asked: the shopper or a staff member. */
  by: { userId: string } | { staffId: string };
}

/** What the ship-now rule reads beside the locked plan (api plan-rules decideShipNow). */
export interface ShipNowFacts {
  /** This Idempotency-Key (its hash) was used for a ship-now of the plan already. */
  repeatOfKey: boolean;
  /** A ship-now was asked for the period it would charge. */
  askedForPeriod: boolean;
  /** A delivery of the plan was charged for today's period (by a ship-now or on its billing day). */
  chargedToday: boolean;
}

/** The facts of a ship-now of the plan for `period` (today: yyyy-MM-dd, UTC), in the change's transaction. */
export async function readShipNowFacts(tx: DbOrTx, subscriptionId: string, keyHash: string, period: string, today: string): Promise<ShipNowFacts> {
  const [byKey, asked, charged] = [
    await findShipNowByKey(tx, subscriptionId, keyHash),
    await shipNowAskedFor(tx, subscriptionId, period),
    await periodCharged(tx, subscriptionId, today),
  ];
  return { repeatOfKey: byKey !== null, askedForPeriod: asked, chargedToday: charged };
}

/** Records a ship-now, in the change's transaction (the plan locked). */
export async function recordShipNow(tx: DbOrTx, r: ShipNowRecord): Promise<void> {
  await tx.insert(subscriptionShipNows).values({
    subscriptionId: r.subscriptionId,
    billingPeriod: r.period,
    keyHash: r.keyHash,
    requestedByUserId: 'userId' in r.by ? r.by.userId : null,
    requestedByStaffId: 'staffId' in r.by ? r.by.staffId : null,
  });
}

/**
 * The page view's `ship_now` of plan `s`: its latest ship-now asked within the last day, with the status
 * and words of its period's charge row (none yet: the renewal has not written it). A lateral join to put
 * after `subscriptions s`.
 */
export const SHIP_NOW_JOIN = `left join lateral (
    select json_build_object('period', n.billing_period, 'requestedAt', n.created_at, 'paymentStatus', p.status, 'paymentAnswered', p.response_message is not null) as ship_now
    from subscription_ship_nows n
    left join payment_transactions p on p.subscription_id = n.subscription_id and p.billing_period = n.billing_period and p.kind = 'charge'
    where n.subscription_id = s.id and n.created_at > now() - interval '1 day'
    order by n.created_at desc limit 1) ship_now on true`;

/** What SHIP_NOW_JOIN answers. */
export interface ShipNowRow {
  period: string;
  requestedAt: string;
  paymentStatus: 'pending' | 'approved' | 'declined' | 'error' | 'refunded' | null;
  paymentAnswered: boolean | null;
}

/**
 * The page view's `one_time_items` of plan `s`: its one-time lines, each with today's catalogue unit price
 * (`priceToday`, null when the product or its size is no longer sold). A lateral join after `subscriptions s`.
 */
export const ONE_TIME_ITEMS_JOIN = `left join lateral (
    select coalesce(json_agg(json_build_object('id', o->>'id', 'productId', (o->>'productId')::int, 'productName', o->>'productName',
        'variantSku', o->>'variantSku', 'quantity', (o->>'quantity')::int,
        'priceToday', case when p.id is null or p.status = 'inactive' then null
          when o->>'variantSku' is null then to_char(p.price, 'FM999999990.00')
          else (select to_char((v->>'price')::numeric, 'FM999999990.00') from jsonb_array_elements(p.variants) v where v->>'sku' = o->>'variantSku' limit 1) end)
        order by ord), '[]') as one_time_items
    from jsonb_array_elements(s.one_time_items) with ordinality as x(o, ord)
    left join products p on p.id = (o->>'productId')::int) one_time on true`;

/** A product as a one-time add-on is priced and checked from it on the day it is charged. */
export interface AddOnProductRow {
  id: number;
  name: string;
  status: string;
  /** numeric as text. */
  price: string;
  variants: Array<{ label: string; price: string; sku: string }>;
  sku: string | null;
  itemNumber: string | null;
  /** products.tax_code: a tax provider's product tax code; null: general goods. */
  taxCode: string | null;
  inventory: number;
}

/** The catalogue rows of these products (unknown ids are absent), read in the caller's transaction. */
export async function readAddOnProducts(db: Queryable, ids: readonly number[]): Promise<Map<number, AddOnProductRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<AddOnProductRow>(
    `select id, name, status::text as status, price::text as price, variants, sku, item_number as "itemNumber", tax_code as "taxCode", inventory from products where id = any($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** What a ship-now rule decides: the change to the plan (its next billing date), the period and the renew job's attempt. */
export interface ShipNowChange extends PlanChangeDecision {
  period: string;
  attempt: number;
}

/**
 * The ship-now sequence for the shopper and staff, in the caller's transaction: the plan locked
 * (changeLockedPlan), the facts of this key and period and the stock pre-flight read, `decide` (the rule:
 * throws to refuse, null to answer the plan as it is), the row, the request's record and the
 * `subscription.ship-now-requested` outbox row (the renew job, with the sweep's job id), then the caller's
 * own `record` (the shopper's email row; staff's audit and email rows). `periodOf`: the period the rule
 * would charge. Answers false when the plan is not found (or not the owner's).
 */
export async function shipNowLockedPlan<D extends ShipNowChange>(
  tx: DbOrTx,
  pool: Db['$client'],
  s: { id: string; ownerId: string | undefined; keyHash: string; by: ShipNowRecord['by'] },
  periodOf: (plan: LockedPlan) => string,
  decide: (plan: LockedPlan, facts: ShipNowFacts, unavailable: UnavailableItem[]) => D | null,
  record: (decision: D, after: SubscriptionRow) => Promise<unknown>,
): Promise<boolean> {
  return changeLockedPlan(
    tx,
    s.id,
    s.ownerId,
    async (plan) => {
      const facts = await readShipNowFacts(tx, s.id, s.keyHash, periodOf(plan), plan.today.toISOString().slice(0, 10));
      // The stock pre-flight only when it could ship (a repeat answers the plan as it is).
      const unavailable = facts.repeatOfKey || plan.row.status !== 'active' ? [] : await unavailableItemsOf(pool, s.id);
      return decide(plan, facts, unavailable);
    },
    async (decision, after) => {
      await recordShipNow(tx, { subscriptionId: s.id, period: decision.period, keyHash: s.keyHash, by: s.by });
      await recordOutbox(tx, 'subscription.ship-now-requested', { subscriptionId: s.id, period: decision.period, attempt: decision.attempt });
      await record(decision, after);
    },
  );
}

/**
 * A renewal's one-time add-ons (issue 21), pure: each priced from the catalogue on the day it is charged (the
 * size's price, SKU and "Product - Size" name, as checkout builds a line) and marked `oneTime` on the
 * order. One no longer sold (removed, inactive, out of stock, its size gone) is named in `unavailable`: the
 * renewal fails the attempt as for a recurring line it cannot have (the heads-up named it beforehand); the
 * reminder email leaves it out of its figure.
 */
export function addOnLines(oneTime: readonly OneTimeLine[], products: ReadonlyMap<number, AddOnProductRow>): { lines: LineItem[]; unavailable: string | null } {
  const lines: LineItem[] = [];
  const gone: string[] = [];
  for (const line of oneTime) {
    const product = products.get(line.productId);
    const variant = line.variantSku ? product?.variants.find((v) => v.sku === line.variantSku) : undefined;
    if (!product || product.status !== 'active' || (line.variantSku && !variant)) {
      gone.push(line.productName);
      continue;
    }
    lines.push({
      productId: product.id,
      productName: variant ? `${product.name} - ${variant.label}` : product.name,
      variantSku: variant ? variant.sku : null,
      sku: variant ? variant.sku : product.sku,
      itemNumber: product.itemNumber,
      quantity: line.quantity,
      price: centsToDecimal(toCents(variant ? variant.price : product.price)),
      ...taxCodeOf(product),
      oneTime: true,
      oneTimeLineId: line.id,
    });
  }
  return { lines, unavailable: gone.length > 0 ? `${gone.join(', ')} (one-time ${gone.length === 1 ? 'item' : 'items'}) no longer available.` : null };
}
