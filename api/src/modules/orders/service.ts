/**
 * Placing an order (POST /api/payments/checkout-nonce). The write path, in three steps:
 *
 * 1. tx1: reserve every line's stock (atomic, no overselling), re-price every line from the catalogue
 *    and the promo code, refuse a total that differs from what the browser showed, spend a single-use
 *    promo code, and insert the order as `pending`. Any refusal rolls all of it back.
 * 2. the charge, outside any transaction (a gateway call must never hold row locks), with an invoice
 *    number derived from the order id and the duplicate window, so a retry cannot charge twice.
 * 3. tx2: the payment row, the order's new status, the outbox row (NetSuite sync and confirmation
 *    email) and the idempotency answer, together. A declined or failed charge instead cancels the
 *    order, puts the stock back and gives back a single-use code, and still records the payment row.
 *
 * The idempotency key is claimed before step 1; its stored answer is written with the outcome.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal, formatCents, OUTBOX_TOPICS, priceCart, STORE_CODE, toCents, toPayloadStrings, type Cents, type PricingPromo } from '@nh/shared';
import { CHECKOUT_MESSAGES, type CheckoutNonceInput } from '@nh/shared/contracts/checkout';
import type { LineItem } from '@nh/shared/server';
import { failedCharge, GATEWAY_MESSAGES, orderInvoiceNumber, type ChargeResult, type OpaqueChargeRequest, type PaymentGateway } from '@nh/shared/server/payments/index';
import type { AppContext } from '../../context';
import { serviceUnavailable } from '../../lib/errors';
import { claimIdempotencyKey, completeStatement, releaseIdempotencyKey, type StoredAnswer } from '../../lib/idempotency';
import { paymentsFor } from '../payments/provider';
import {
  findPromo,
  beginAndReserveStock,
  inReservationTransaction,
  insertPendingOrderAndCommit,
  productAvailability,
  recordAcceptedPayment,
  recordFailedPayment,
  redeemPromo,
  type Client,
  type PaymentRecord,
  type ReservedProduct,
} from './repository';

export const CHECKOUT_SCOPE = 'checkout';

export const IDEMPOTENCY_MESSAGES = {
  missing: CHECKOUT_MESSAGES.idempotencyKeyMissing,
  invalid: CHECKOUT_MESSAGES.idempotencyKeyInvalid,
  reused: CHECKOUT_MESSAGES.idempotencyKeyReused,
  inProgress: CHECKOUT_MESSAGES.idempotencyInProgress,
};

export interface CheckoutAnswer extends StoredAnswer {
  replayed: boolean;
}

export interface PlaceOrderOptions {
  idempotencyKey: string;
  requestHash: string;
  userId: string | null;
}

/** A refusal decided inside tx1: the transaction rolls back and this becomes the answer. */
class Refusal extends Error {
  constructor(readonly answer: StoredAnswer) {
    super(String((answer.body as { message?: string }).message));
  }
}
const refuse = (status: number, message: string, details: Record<string, unknown> = {}): never => {
  throw new Refusal({ status, body: { message, ...details } });
};

interface Reservation {
  orderId: string;
  total: Cents;
  productIds: number[];
  quantities: number[];
}

export async function placeOrder(ctx: AppContext, input: CheckoutNonceInput, options: PlaceOrderOptions): Promise<CheckoutAnswer> {
  const { gateway } = paymentsFor(ctx);
  if (!gateway) throw serviceUnavailable(CHECKOUT_MESSAGES.paymentsUnavailable);
  const pool = ctx.db.$client;
  const { idempotencyKey: key } = options;

  const claim = await claimIdempotencyKey(pool, CHECKOUT_SCOPE, key, options.requestHash, IDEMPOTENCY_MESSAGES);
  if (claim.kind === 'replay') return { ...claim.answer, replayed: true };

  let reservation: Reservation;
  try {
    // The reservation commits asynchronously (its row locks go as soon as it commits); the outcome
    // statement below commits synchronously, which flushes this one too before anyone is answered.
    reservation = await inReservationTransaction(pool, (client) => reserveAndCreateOrder(client, input, options.userId));
  } catch (error) {
    if (error instanceof Refusal) {
      await pool.query(completeStatement(CHECKOUT_SCOPE, key, error.answer));
      return { ...error.answer, replayed: false };
    }
    await releaseIdempotencyKey(pool, CHECKOUT_SCOPE, key).catch(() => {});
    throw error;
  }

  const charge = await chargeOnce(gateway, {
    amount: reservation.total,
    invoiceNumber: orderInvoiceNumber(reservation.orderId),
    description: `${STORE_CODE} order ${reservation.orderId.slice(0, 8)}`,
    email: input.email,
    billTo: { firstName: input.firstName, lastName: input.lastName, address: input.address, city: input.city, state: input.state, zip: input.zip },
    opaqueData: { dataDescriptor: input.dataDescriptor, dataValue: input.dataValue },
  });
  const answer = answerFor(ctx, reservation.orderId, charge);
  await recordOutcome(ctx, key, reservation, charge, answer);
  return { ...answer, replayed: false };
}

async function reserveAndCreateOrder(client: Client, input: CheckoutNonceInput, userId: string | null): Promise<Reservation> {
  const { orderData } = input;
  const orderId = randomUUID();

  // One reservation per product (two variants of one product share its stock).
  const wanted = new Map<number, number>();
  for (const item of orderData.items) wanted.set(item.productId, (wanted.get(item.productId) ?? 0) + item.quantity);
  const productIds = [...wanted.keys()].sort((a, b) => a - b);
  const quantities = productIds.map((id) => wanted.get(id)!);

  const reserved = await beginAndReserveStock(client, productIds, quantities);
  if (reserved.length < productIds.length) {
    const got = new Set(reserved.map((p) => p.id));
    const missing = productIds.filter((id) => !got.has(id));
    // On this transaction's own connection (a second pool connection per request could exhaust the
    // pool under a rush on a sold-out product); the missing products were not touched by it.
    const known = await productAvailability(client, missing);
    const first = known.find((p) => p.status !== 'inactive');
    if (!first) refuse(409, 'A product in your cart is no longer available. Please remove it and try again.', { productIds: missing });
    const left = first!.status === 'active' ? first!.inventory : 0;
    refuse(
      409,
      left > 0
        ? `Only ${left} of "${first!.name}" left in stock. Please reduce the quantity and try again.`
        : `"${first!.name}" is out of stock. Please remove it from your cart and try again.`,
      { productId: first!.id, available: left },
    );
  }
  const byId = new Map<number, ReservedProduct>(reserved.map((p) => [p.id, p]));

  // Re-price every line from the catalogue.
  const items: LineItem[] = [];
  const lines: Array<{ price: Cents; quantity: number }> = [];
  const changed: Array<{ productId: number; variantSku: string | null; price: string }> = [];
  for (const item of orderData.items) {
    const product = byId.get(item.productId)!;
    let unit = product.price;
    let name = product.name;
    let sku = product.sku;
    const variantSku = item.variantSku ?? null;
    if (variantSku) {
      const variant = product.variants.find((v) => v.sku === variantSku);
      if (!variant) refuse(409, `The selected size of "${product.name}" is no longer available. Please update your cart.`, { productId: product.id, variantSku });
      unit = toCents(variant!.price);
      name = `${product.name} - ${variant!.label}`;
      sku = variant!.sku;
    }
    if (toCents(item.price) !== unit) changed.push({ productId: product.id, variantSku, price: centsToDecimal(unit) });
    items.push({ productId: product.id, productName: name, variantSku, sku, itemNumber: product.itemNumber, quantity: item.quantity, price: centsToDecimal(unit) });
    lines.push({ price: unit, quantity: item.quantity });
  }
  if (changed.length) {
    const first = items.find((i) => i.productId === changed[0]!.productId && i.variantSku === changed[0]!.variantSku)!;
    refuse(409, `The price of "${first.productName}" is now ${formatCents(toCents(first.price))}. Please review your cart and try again.`, { prices: changed });
  }

  let promo: PricingPromo | null = null;
  if (orderData.promoCode) {
    const row = await findPromo(client, orderData.promoCode);
    const usable = row && row.isActive && !(row.singleUse && row.redeemed) && (row.discountType === 'percentage' || row.discountType === 'fixed');
    if (!usable) refuse(422, CHECKOUT_MESSAGES.promoInvalid, { promoCode: orderData.promoCode });
    if (row!.singleUse && !(await redeemPromo(client, row!.id, orderId))) refuse(422, CHECKOUT_MESSAGES.promoInvalid, { promoCode: orderData.promoCode });
    promo = { discountType: row!.discountType as PricingPromo['discountType'], discountValue: row!.discountValue };
  }

  const pricing = priceCart(lines, { promo, subscribe: false });
  const expected = toPayloadStrings(pricing);
  const shown = { subtotal: orderData.subtotal, shipping: orderData.shipping, tax: orderData.tax, total: orderData.total };
  const differs = (Object.keys(shown) as Array<keyof typeof shown>).some((k) => toCents(shown[k]) !== toCents(expected[k])) || toCents(input.amount) !== pricing.total;
  if (differs) {
    refuse(
      409,
      `Your order total has changed to ${formatCents(pricing.total)} (the checkout showed ${formatCents(toCents(input.amount))}). Please review your order and try again.`,
      { expected },
    );
  }

  await insertPendingOrderAndCommit(client, {
    id: orderId,
    storeCode: STORE_CODE,
    userId,
    customerEmail: input.email.toLowerCase(),
    customerName: `${input.firstName} ${input.lastName}`,
    shippingAddress: orderData.shippingAddress,
    billingAddress: orderData.billingAddress,
    items,
    subtotal: pricing.subtotal,
    discount: pricing.discount,
    shipping: pricing.shipping,
    tax: pricing.tax,
    total: pricing.total,
    promoCode: promo ? orderData.promoCode : null,
  });
  return { orderId, total: pricing.total, productIds, quantities };
}

/**
 * Charges once. When the outcome is unknown (timeout, dropped connection) it asks once more with the
 * same invoice number: error 11 (duplicate) then means the first attempt went through.
 */
async function chargeOnce(gateway: PaymentGateway, request: OpaqueChargeRequest): Promise<ChargeResult> {
  // A gateway that throws has an unknown outcome: the order and its stock are kept for reconciliation.
  const attempt = () => gateway.chargeOpaqueData(request).catch(() => failedCharge(gateway.environment, 'unknown', GATEWAY_MESSAGES.unknown, 'exception'));
  const first = await attempt();
  if (first.outcome !== 'unknown') return first;
  const second = await attempt();
  if (second.duplicate) return { ...second, outcome: 'approved', message: GATEWAY_MESSAGES.approved, errorCode: null };
  if (second.outcome === 'approved' || second.outcome === 'declined' || second.outcome === 'held') return second;
  return first;
}

function answerFor(ctx: AppContext, orderId: string, charge: ChargeResult): StoredAnswer {
  switch (charge.outcome) {
    case 'approved':
    case 'held':
      return { status: 200, body: { orderId } };
    case 'unknown':
      return { status: 502, body: { message: GATEWAY_MESSAGES.unknown, responseMessage: GATEWAY_MESSAGES.unknown, orderId } };
    default:
      if (charge.errorCode === 'E00007') {
        ctx.log.error({ orderId }, 'Authorize.Net refused our credentials (E00007): check AUTHNET_API_LOGIN_ID and AUTHNET_TRANSACTION_KEY');
        return { status: 503, body: { message: CHECKOUT_MESSAGES.paymentsUnavailable } };
      }
      return { status: 402, body: { message: charge.message, responseMessage: charge.message } };
  }
}

const PAYMENT_STATUS = { approved: 'approved', held: 'pending', unknown: 'pending', declined: 'declined', error: 'error' } as const;

async function recordOutcome(ctx: AppContext, key: string, r: Reservation, charge: ChargeResult, answer: StoredAnswer): Promise<void> {
  const payment: PaymentRecord = {
    orderId: r.orderId,
    transactionId: charge.transactionId,
    invoiceNumber: orderInvoiceNumber(r.orderId),
    amount: r.total,
    status: PAYMENT_STATUS[charge.outcome],
    responseCode: charge.responseCode ?? charge.errorCode,
    responseMessage: charge.message,
    cardType: charge.cardType,
    lastFour: charge.lastFour,
    environment: charge.environment,
  };
  const idem = { scope: CHECKOUT_SCOPE, key, ...answer };
  const pool = ctx.db.$client;
  // Each outcome is one statement (one atomic commit, one round trip).
  const write = () => {
    if (charge.outcome === 'approved' || charge.outcome === 'held') {
      return recordAcceptedPayment(pool, payment, charge.outcome === 'approved' ? 'processing' : 'pending', { topic: OUTBOX_TOPICS.orderPlaced, payload: { orderId: r.orderId } }, idem);
    }
    // Unknown: money may have been taken, so the order and its stock stay for staff to reconcile.
    if (charge.outcome === 'unknown') return recordAcceptedPayment(pool, payment, 'pending', null, idem);
    return recordFailedPayment(pool, payment, r.productIds, r.quantities, idem);
  };
  // After a charge, recording it must not be lost to a passing database hiccup.
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (attempt >= 3) {
        ctx.log.error({ err: error, orderId: r.orderId, transactionId: charge.transactionId, outcome: charge.outcome }, 'could not record a payment outcome: reconcile this order by hand');
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
