/**
 * Ship now and one-time add-ons on My Subscriptions (issue 21). Each is a plan change through the one
 * sequence (@nh/server changeLockedPlan: the plan row locked as the renewal locks it, the rule of
 * ./add-on-rules.ts, the row, then the `subscription.changed` outbox row: the confirmation email). A ship-now
 * also records its request (subscription_ship_nows: the key's hash, never the key) and the
 * `subscription.ship-now-requested` outbox row, which the relay turns into the renewal job with the sweep's
 * own job id for that period (so a sweep at the same moment adds the same job). The API answers 202 with
 * the plan at once and the page polls the list until the charge has an outcome (the renewal runs in the
 * worker: waiting for the payment service inside the request would hold a connection for seconds).
 */
import { createHash } from 'node:crypto';
import { SUBSCRIPTION_MESSAGES as MSG, type SubscriptionView } from '@nh/shared/contracts/subscriptions';
import { SHIP_NOW_MESSAGES, type AddOneTimeItemRequest } from '@nh/shared/contracts/ship-now-add-ons';
import type { Db } from '@nh/server/db/client';
import { shipNowLockedPlan } from '@nh/server/queries/subscriptions/ship-now';
import { AppError } from '../../lib/errors';
import { readIdempotencyKey } from '../../lib/idempotency';
import { isUuid } from '../../lib/validation';
import { catalogueLine, type PricedProduct } from '../catalog';
import { decideAddOneTime, decideRemoveOneTime, decideShipNow, shipNowChange, shipNowPeriod, variantForSize } from './add-on-rules';
import { changeOwnPlan, recordChangedForShopper } from './changes';
import { checkedBy, type ChangeSource } from './change-source';
import { recordPlanChange } from '@nh/server/queries/subscriptions/plan-history';
import type { ShipNowFacts } from '@nh/server/queries/subscriptions/ship-now';
import type { UnavailableItem } from '@nh/shared/contracts/admin-subscriptions';
import { viewOf } from './service';

const notFound = () => new AppError('NOT_FOUND', MSG.notFound);

/** The Idempotency-Key header (400 when missing or malformed) as its SHA-256: the only form stored. */
export function shipNowKeyHash(header: string | string[] | undefined): string {
  const key = readIdempotencyKey(header, { missing: SHIP_NOW_MESSAGES.idempotencyKeyMissing, invalid: SHIP_NOW_MESSAGES.idempotencyKeyInvalid, reused: '', inProgress: '' });
  return createHash('sha256').update(key).digest('hex');
}

/** POST /api/subscriptions/{id}/ship-now: 202 with the plan (its `shipNow` says how the charge stands). */
export async function shipNow(db: Db, userId: string, id: string, keyHash: string, source?: ChangeSource): Promise<SubscriptionView> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const found = await shipNowLockedPlan(
      tx,
      db.$client,
      { id, ownerId: userId, keyHash, by: { userId } },
      shipNowPeriod,
      checkedBy(source, (plan, facts: ShipNowFacts, unavailable: UnavailableItem[]) => shipNowChange(decideShipNow(plan, facts, unavailable, MSG))),
      async (decision, after) => {
        // Through an emailed link: the link spent and the request kept in the plan's history "via email link"
        // (on My Subscriptions the ship-now's own record, subscription_ship_nows, is its history).
        if (source) {
          await source.spend(tx);
          await recordPlanChange(tx, id, 'customer', { kind: 'ship-now', before: null, after: { period: decision.period }, via: source.via });
        }
        await recordChangedForShopper(tx, id, { kind: 'ship-now', period: decision.period }, after);
      },
    );
    if (!found) throw notFound();
  });
  return viewOf(db.$client, id, userId);
}

/** Looks products up in the catalogue (fresh, not the cached price list). */
export type CatalogueLookup = (productIds: number[]) => Promise<Map<number, PricedProduct>>;

/**
 * The line a one-time add-on request names, from today's catalogue: an active product (not out of stock),
 * and one of its sizes when it has sizes (`size`: the size's SKU or label). 409 SUBSCRIPTION_ITEM_NOT_SOLD otherwise.
 */
export async function oneTimeLine(lookUp: CatalogueLookup, input: AddOneTimeItemRequest) {
  const product = (await lookUp([input.productId])).get(input.productId);
  if (!product || product.status !== 'active') throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', MSG.productNotSold, { productId: input.productId });
  if (product.variants.length === 0) {
    if (input.size) throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', MSG.noSizes(product.name), { productId: input.productId, size: input.size });
    return catalogueLine(product, null, input.quantity);
  }
  const variant = variantForSize(product.variants, input.size);
  if (!variant) throw new AppError('SUBSCRIPTION_ITEM_NOT_SOLD', MSG.sizeNotSold(product.name), { productId: input.productId, size: input.size ?? null });
  return catalogueLine(product, variant, input.quantity);
}

/** POST /api/subscriptions/{id}/one-time-items: adds a line to the next delivery only. */
export async function addOneTimeItem(db: Db, lookUp: CatalogueLookup, userId: string, id: string, input: AddOneTimeItemRequest): Promise<SubscriptionView> {
  if (!isUuid(id)) throw notFound();
  const line = await oneTimeLine(lookUp, input);
  return changeOwnPlan(
    db,
    userId,
    id,
    (plan) => decideAddOneTime(plan, line, MSG),
    (tx, decision, after) => recordChangedForShopper(tx, id, { kind: 'one-time-added', productName: decision.line.productName, quantity: decision.line.quantity }, after),
  );
}

/** DELETE /api/subscriptions/{id}/one-time-items/{lineId}: a line no longer there answers the plan as it is. */
export function removeOneTimeItem(db: Db, userId: string, id: string, lineId: string): Promise<SubscriptionView> {
  return changeOwnPlan(
    db,
    userId,
    id,
    (plan) => decideRemoveOneTime(plan, lineId, MSG),
    (tx, decision, after) => recordChangedForShopper(tx, id, { kind: 'one-time-removed', productName: decision.line.productName, quantity: decision.line.quantity }, after),
  );
}
