/**
 * Ship now and one-time add-ons from the plan page, on the customer's behalf (issue 21): the shopper's
 * rules (../../subscriptions/add-on-rules.ts) through the same sequences (@nh/server changeLockedPlan,
 * shipNowLockedPlan), each with staff's reason in its audit row and the `subscription.changed-by-staff`
 * outbox row (the customer's email, which reads that audit row), in one transaction.
 */
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { ProductVariant } from '@nh/server/db/schema';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { readProductPrices } from '@nh/server/queries/catalog';
import { recordOutbox } from '@nh/server/queries/outbox';
import { changeLockedPlan } from '@nh/server/queries/subscriptions/changes';
import { shipNowLockedPlan } from '@nh/server/queries/subscriptions/ship-now';
import type { AuditAction } from '@nh/shared/contracts/audit';
import { ADMIN_SUBSCRIPTION_MESSAGES as MSG, type AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import type { AddOneTimeItemRequest } from '@nh/shared/contracts/ship-now-add-ons';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { toCents } from '@nh/shared/money';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';
import type { PricedProduct } from '../../catalog';
import { decideAddOneTime, decideRemoveOneTime, decideShipNow, shipNowChange, shipNowPeriod } from '../../subscriptions/add-on-rules';
import { oneTimeLine } from '../../subscriptions/add-ons';
import { getSubscription } from './service';

const notFound = () => new AppError('NOT_FOUND', MSG.notFound);

/** The catalogue read fresh (never the cache), as the shopper's add-ons are priced. */
async function catalogue(pool: Db['$client'], ids: number[]): Promise<Map<number, PricedProduct>> {
  const rows = await readProductPrices(pool, ids);
  return new Map(
    rows.map((r) => [
      r.id,
      { ...r, price: toCents(r.price), priceText: r.price, variants: JSON.parse(r.variants) as ProductVariant[], variantsJson: r.variants },
    ]),
  );
}

/** The audit row (staff, reason, before and after) and the customer's email row of one action. */
async function audited(tx: DbOrTx, actor: AuditActor, id: string, action: AuditAction, before: Record<string, unknown>, after: Record<string, unknown>) {
  const [auditId] = await recordAudit(tx, actor, { action, entityType: 'subscription', entityId: id, before, after });
  await recordOutbox(tx, OUTBOX_TOPICS.subscriptionChangedByStaff, { subscriptionId: id, auditId: auditId! });
}

/** POST /api/admin/subscriptions/{id}/ship-now {reason} (Idempotency-Key): 202 with the plan. */
export async function shipNowForCustomer(db: Db, id: string, keyHash: string, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const found = await shipNowLockedPlan(
      tx,
      db.$client,
      { id, ownerId: undefined, keyHash, by: { staffId: actor.staffId! } },
      shipNowPeriod,
      (plan, facts, unavailable) => shipNowChange(decideShipNow(plan, facts, unavailable, MSG)),
      (decision) => audited(tx, actor, id, 'subscription.shipped_now', decision.before, { ...decision.after, reason }),
    );
    if (!found) throw notFound();
  });
  return getSubscription(db, id);
}

export async function addOneTimeItemForCustomer(db: Db, id: string, input: AddOneTimeItemRequest, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  if (!isUuid(id)) throw notFound();
  const line = await oneTimeLine((ids) => catalogue(db.$client, ids), input);
  await db.transaction(async (tx) => {
    const found = await changeLockedPlan(
      tx,
      id,
      undefined,
      (plan) => decideAddOneTime(plan, line, MSG),
      (decision) => audited(tx, actor, id, 'subscription.one_time_item_added', decision.before, { ...decision.after, reason }),
    );
    if (!found) throw notFound();
  });
  return getSubscription(db, id);
}

export async function removeOneTimeItemForCustomer(db: Db, id: string, lineId: string, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (tx) => {
    const found = await changeLockedPlan(
      tx,
      id,
      undefined,
      (plan) => decideRemoveOneTime(plan, lineId, MSG),
      (decision) => audited(tx, actor, id, 'subscription.one_time_item_removed', decision.before, { ...decision.after, reason }),
    );
    if (!found) throw notFound();
  });
  return getSubscription(db, id);
}
