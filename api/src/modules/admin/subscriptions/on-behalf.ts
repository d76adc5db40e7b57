/**
 * Staff change a plan on the customer's behalf (issue 21): its items and its delivery address, by the
 * shopper's own rules (../../subscriptions/plan-items.ts, plan-rules.ts decideAddress) through the staff
 * action's sequence (./service.ts act: the plan locked, the audit row with the staff member and the
 * reason, the email's outbox row); and a link emailed to the customer to give the plan a new card (staff
 * never see or type card numbers). docs/decisions/subscriptions.md ("Staff on the customer's behalf").
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { recordOutbox } from '@nh/server/queries/outbox';
import { lockPlanForChange } from '@nh/server/queries/subscriptions/changes';
import { insertPlanCardLink } from '@nh/server/queries/subscriptions/card-links';
import { ADMIN_SUBSCRIPTION_MESSAGES as MSG, type AdminSubscriptionDetail } from '@nh/shared/contracts/admin-subscriptions';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { PLAN_CARD_LINK_TTL_MS } from '@nh/shared/contracts/plan-card-link';
import type { ChangeAddressRequest, ChangeItemsRequest } from '@nh/shared/contracts/subscriptions';
import { AppError } from '../../../lib/errors';
import { isUuid } from '../../../lib/validation';
import { decideItems, type CatalogueLookup } from '../../subscriptions/plan-items';
import { decideAddress, hasEnded } from '../../subscriptions/plan-rules';
import { act, getSubscription } from './service';

/** New quantities and added products, priced from today's catalogue (the shopper's rule), with staff's reason in the audit row. */
export function changeItemsForCustomer(db: Db, lookUp: CatalogueLookup, id: string, input: ChangeItemsRequest, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, async (plan) => {
    const decision = await decideItems(plan, lookUp, { items: input.items }, MSG);
    return decision && { kind: decision.kind, change: decision.change, before: decision.before, after: { ...decision.after, added: decision.added, reason } };
  });
}

/** A new delivery address (checked as checkout checks it), from the next renewal; the same address again changes nothing. */
export function changeAddressForCustomer(db: Db, id: string, address: ChangeAddressRequest, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  return act(db, id, actor, (plan) => {
    const decision = decideAddress(plan, address, MSG);
    return decision && { ...decision, after: { ...decision.after, reason } };
  });
}

/**
 * Emails the customer a single-use link (PLAN_CARD_LINK_TTL_MS) to give the plan a new card, replacing any
 * link sent before. The plan is locked (a plan cancelled at this moment gets no link); the link's row, the
 * audit row (staff member and reason) and the outbox row (the link's id only: the mail worker makes the
 * token as it sends, so no outbox row, job or log holds it) are written together. Answers the plan.
 */
export async function sendCardLink(db: Db, id: string, reason: string, actor: AuditActor): Promise<AdminSubscriptionDetail> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', MSG.notFound);
  await db.transaction(async (tx) => {
    const plan = await lockPlanForChange(tx, id);
    if (!plan) throw new AppError('NOT_FOUND', MSG.notFound);
    if (hasEnded(plan.row)) throw new AppError('SUBSCRIPTION_ENDED', MSG.alreadyEnded);
    const expiresAt = new Date(Date.now() + PLAN_CARD_LINK_TTL_MS);
    const link = await insertPlanCardLink(tx, { subscriptionId: id, email: plan.row.customerEmail, createdBy: actor.staffId, expiresAt });
    await recordAudit(tx, actor, {
      action: 'subscription.card_link_sent',
      entityType: 'subscription',
      entityId: id,
      before: null,
      after: { sentTo: plan.row.customerEmail, expiresAt: expiresAt.toISOString(), reason },
    });
    await recordOutbox(tx, OUTBOX_TOPICS.subscriptionCardLinkRequested, { tokenId: link.id });
  });
  return getSubscription(db, id);
}
