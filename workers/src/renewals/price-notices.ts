/**
 * Price-change notices (consent on record, issue 22): the daily renewal sweep looks at every plan whose
 * price per delivery differs from the one its shopper agreed to or was last told of. Its renewal price
 * (priceRenewal, the one computation, for the recurring lines) higher: a notice email with the old and
 * new price, the first billing day at the new price (at least PRICE_CHANGE_NOTICE_DAYS away) and a cancel
 * link; the plan records the notified price and that day, and renewals before it charge the price agreed
 * before (shared/subscriptions/agreed-price.ts). Lower: the agreed price follows it down, no email.
 * Each plan through the one plan-change sequence (changeLockedPlan: locked as a renewal locks it).
 * docs/decisions/subscriptions.md ("Consent on record").
 */
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { recordOutbox } from '@nh/server/queries/outbox';
import { findPriceChangeCandidates, insertPriceNotice } from '@nh/server/queries/subscriptions/consent';
import { changeLockedPlan, type LockedPlan, type PlanChangeDecision } from '@nh/server/queries/subscriptions/changes';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { billingPeriodOf } from '@nh/shared/contracts/subscriptions';
import { toCents } from '@nh/shared/money';
import { priceRenewal } from '@nh/shared/pricing';
import { decidePriceNotice, type PriceNoticeDecision } from '@nh/shared/subscriptions/agreed-price';

type Decided = PlanChangeDecision & { decision: Exclude<PriceNoticeDecision, { kind: 'none' }> };

/** The rule for one locked plan (pure but for the plan): null when its price is the one agreed. */
export function decidePlanPriceNotice({ row, today }: LockedPlan, days?: number): Decided | null {
  if (row.status !== 'active' && row.status !== 'paused') return null;
  const renewalPrice = priceRenewal(
    row.items.map((line) => ({ price: toCents(line.price), quantity: line.quantity })),
    row.amount,
  ).total;
  const decision = decidePriceNotice(row, renewalPrice, billingPeriodOf(today), days);
  if (decision.kind === 'none') return null;
  if (decision.kind === 'drop') return { decision, change: { agreedAmount: decision.to, agreedAmountFrom: null, priorAgreedAmount: null } };
  return { decision, change: { agreedAmount: decision.to, agreedAmountFrom: decision.firstChargeOn, priorAgreedAmount: decision.priorAgreedAmount } };
}

export interface PriceNoticeResult {
  noticed: string[];
  dropped: string[];
}

/** Every candidate, a keyset page at a time (a catalogue price change may reach every plan at once). */
async function* priceChangeCandidates(db: Db, pageSize?: number): AsyncGenerator<string> {
  let after: string | null = null;
  for (;;) {
    const page = await findPriceChangeCandidates(db, after, pageSize);
    yield* page;
    if (page.length < (pageSize ?? 1000)) return;
    after = page[page.length - 1]!;
  }
}

/** Sends the notices due (and follows the drops); one plan failing is logged and tried again tomorrow. */
export async function sendPriceNotices(db: Db, log: Logger, days?: number, pageSize?: number): Promise<PriceNoticeResult> {
  const result: PriceNoticeResult = { noticed: [], dropped: [] };
  for await (const id of priceChangeCandidates(db, pageSize)) {
    try {
      await db.transaction((tx) =>
        changeLockedPlan(
          tx,
          id,
          undefined,
          (plan) => decidePlanPriceNotice(plan, days),
          async ({ decision }) => {
            if (decision.kind === 'drop') {
              result.dropped.push(id);
              return;
            }
            const noticeId = await insertPriceNotice(tx, { subscriptionId: id, fromAmount: decision.from, toAmount: decision.to, firstChargeOn: decision.firstChargeOn });
            await recordOutbox(tx, OUTBOX_TOPICS.subscriptionPriceNotice, { subscriptionId: id, noticeId });
            result.noticed.push(id);
          },
        ),
      );
    } catch (error) {
      log.error({ err: error, subscriptionId: id }, 'price-change notice not recorded; tried again tomorrow');
    }
  }
  if (result.noticed.length + result.dropped.length > 0) log.info({ noticed: result.noticed.length, dropped: result.dropped.length }, 'price-change notices');
  return result;
}
