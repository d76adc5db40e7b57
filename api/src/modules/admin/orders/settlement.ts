/**
 * Where an order's charge stands, for the refund dialog's review step (issue 23,
 * `POST /api/admin/orders/{id}/settlement`; docs/decisions/refunds.md "The review step says which").
 *
 * The database knows only what we did to the charge, not whether Authorize.Net's daily batch settled it,
 * so the payment service is asked (the same `settlementOf` the refund itself uses) — once per review,
 * never on the order page. What the rows do say is used first: an approved void closed the charge, and an
 * approved refund means it had settled (a refund is only possible after settlement).
 */
import { centsToDecimal, type Cents } from '@nh/shared';
import { cardEnding } from '@nh/shared/cards';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { findOrderCharge, listOrderPayments } from '@nh/server/queries/refunds';
import { findStoreOrder } from '@nh/server/queries/order-detail';
import type { PaymentGateway } from '@nh/server/payments';
import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { REFUND_MESSAGES, settlementSentence, type ChargeSettlement, type ChargeSettlementState } from '@nh/shared/contracts/refunds';
import { AppError } from '../../../lib/errors';

export interface SettlementDeps {
  db: Db;
  /** Null when card payments are not configured. */
  gateway: PaymentGateway | null;
  log: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function view(state: ChargeSettlementState, captured: Cents | null, cardType: string | null, lastFour: string | null, status: string | null): ChargeSettlement {
  return {
    state,
    status,
    captured: captured === null ? null : centsToDecimal(captured),
    cardType,
    lastFour,
    message: settlementSentence(state, captured, cardEnding(cardType, lastFour), status),
  };
}

/** The charge's settlement as staff read it before refunding. Throws NOT_FOUND for an order not of the store. */
export async function chargeSettlement(deps: SettlementDeps, storeCode: string, orderId: string): Promise<ChargeSettlement> {
  const { db, gateway } = deps;
  if (!UUID.test(orderId) || !(await findStoreOrder(db, storeCode, orderId))) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.orderNotFound);
  const charge = await findOrderCharge(db, orderId);
  if (!charge) return view('none', null, null, null, null);

  const children = (await listOrderPayments(db, orderId)).filter((r) => r.parentId === charge.id && r.status === 'approved');
  if (children.some((r) => r.kind === 'void')) return view('closed', charge.amount, charge.cardType, charge.cardLastFour, 'voided');
  if (children.some((r) => r.kind === 'refund')) return view('settled', charge.amount, charge.cardType, charge.cardLastFour, null);

  if (!gateway || !charge.authnetTransactionId) return view('unknown', charge.amount, charge.cardType, charge.cardLastFour, null);
  try {
    const found = await gateway.settlementOf(charge.authnetTransactionId);
    const lastFour = charge.cardLastFour ?? found.lastFour;
    if (found.state === 'not-found') return { ...view('closed', charge.amount, charge.cardType, lastFour, null), message: REFUND_MESSAGES.notFoundAtGateway };
    return view(found.state, charge.amount, charge.cardType, lastFour, found.state === 'closed' ? found.status : null);
  } catch (error) {
    deps.log.warn({ orderId, err: error }, 'settlement: the charge could not be looked up at the payment service');
    return view('unknown', charge.amount, charge.cardType, charge.cardLastFour, null);
  }
}
