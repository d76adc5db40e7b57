/**
 * Placing an order: a checkout (POST /api/payments/checkout-nonce), or the first delivery of a new
 * Subscribe & Save plan (POST /api/payments/subscribe-nonce, see ./requests.ts). Both take the same
 * write path, in three steps:
 *
 * 1. Price the cart from the catalogue's price list (in-process, see catalog/price-list.ts) and the
 *    promo code, refusing a total that differs from what the browser showed. Then the reservation
 *    transaction, one round trip: claim the idempotency key, spend a single-use promo code, insert the
 *    order as `pending`, take the stock (the guard re-checks every price on the locked rows), commit
 *    (without waiting for the disk, so hot rows are not locked through a flush; a synchronous commit
 *    right after, in the same message, makes the order durable before the charge).
 *    Any refusal is decided on a fresh read of the catalogue and stored as the key's answer.
 * 2. The charge, outside any transaction (a gateway call must never hold row locks), with an invoice
 *    number derived from the order id and the duplicate window, so a retry cannot charge twice.
 * 3. One statement records the outcome: the payment row, the order's new status, the outbox row
 *    (NetSuite sync and confirmation email) and the idempotency answer; for a plan, the subscription
 *    row and its outbox row too. A declined or failed charge instead cancels the order, puts the stock
 *    back, gives back a single-use code, and still records the payment row (and no plan is made).
 *
 * What differs for a plan (`PlaceOrderOptions.plan`): subscriber pricing (`pricePlan`: a promo code
 * applies to the first delivery only; the plan's amount is the subscriber price without it), an idempotency
 * scope of its own, the first billing period on the payment row, a stored card (CIM) asked of the
 * gateway, and the answer { subscriptionId, orderId, nextBillingDate }.
 *
 * Every refusal is an AppError with its code, answered (and stored as the key's answer) by
 * `errorAnswer`, the error mapper's own rule.
 */
import { randomUUID } from 'node:crypto';
import { centsToDecimal, formatCents, stockByProduct, STORE_CODE, toCents, toPayloadStrings, type Cents, type PricingPromo } from '@nh/shared';
import type { TaxCalculator } from '@nh/server/tax';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { AuthUser } from '@nh/shared/contracts/auth';
import { CHECKOUT_MESSAGES, type CheckoutNonceInput, type OrderItemInput, type SubscribeNonceInput } from '@nh/shared/contracts/checkout';
import type { SubscribeNonceResponse } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import type { LineItem } from '@nh/server/db/schema';
import type { Logger } from '@nh/server/observability/logger';
import { orderCreditApplied, reserveOrder, type PendingOrder, type PricedStockLine } from '@nh/server/queries/orders';
import { creditBalance } from '@nh/server/queries/store-credit';
import { acceptedOrderStatus, PAYMENT_STATUS_OF, recordAcceptedPayment, recordFailedPayment, type OutboxRecord, type PaymentRecord } from '@nh/server/queries/payments';
import { findUsablePromo } from '@nh/server/queries/promo';
import {
  approvedByDuplicate,
  failedCharge,
  GATEWAY_MESSAGES,
  isAcceptedCharge,
  orderInvoiceNumber,
  type ChargeResult,
  type OpaqueChargeRequest,
  type PaymentGateway,
} from '@nh/server/payments';
import type { ErrorCode } from '@nh/shared/contracts/errors';
import { checkoutsTotal, type CheckoutOutcome } from '@nh/server/observability/metrics';
import { AppError, errorAnswer } from '../../lib/errors';
import { awaitStoredAnswer, storeAnswer, type StoredAnswer } from '../../lib/idempotency';
import { catalogueLine, type PricedProduct, type PriceList } from '../catalog/price-list';
import { SUBSCRIPTION_TERMS_VERSION, subscriptionTermsText } from '@nh/shared/contracts/subscription-terms';
import { priceCheckout, refusalField, type CheckoutLine } from './pricing';
import { checkoutOrder, newPlan, subscriptionOrder, type NewPlan, type OrderRequest } from './requests';

/** What the write path uses, handed over by the composition root. */
export interface CheckoutDeps {
  pool: Db['$client'];
  /** Null when card payments are not configured: every call then answers 503. */
  gateway: PaymentGateway | null;
  /** The catalogue's in-process price list (catalog/price-list.ts). */
  priceList: PriceList;
  /** Sales tax by destination (TAX_MODE, issue 25). */
  tax: TaxCalculator;
  log: Logger;
}

export interface PlaceOrderKey {
  idempotencyKey: string;
  requestHash: string;
}

/** The checkout's use cases: one order, or the first delivery of a new plan. */
export function createCheckoutService(deps: CheckoutDeps) {
  return {
    checkout: (input: CheckoutNonceInput, key: PlaceOrderKey & { userId: string | null }): Promise<CheckoutAnswer> => placeOrder(deps, checkoutOrder(input), key),
    /** `consent`: the browser's act of subscribing (consent on record, issue 22), recorded with the plan. */
    subscribe: (input: SubscribeNonceInput, user: AuthUser, key: PlaceOrderKey, consent: ConsentAct): Promise<CheckoutAnswer> =>
      placeOrder(deps, subscriptionOrder(input), { ...key, userId: user.id, plan: { ...newPlan(user, input.interval, input.intervalCount), consent } }),
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;

/** Idempotency scopes: a key names one checkout attempt or one subscribe attempt, never both. */
export const CHECKOUT_SCOPE = 'checkout';
export const SUBSCRIBE_SCOPE = 'subscribe';

export const IDEMPOTENCY_MESSAGES = {
  missing: CHECKOUT_MESSAGES.idempotencyKeyMissing,
  invalid: CHECKOUT_MESSAGES.idempotencyKeyInvalid,
  reused: CHECKOUT_MESSAGES.idempotencyKeyReused,
  inProgress: CHECKOUT_MESSAGES.idempotencyInProgress,
};

/** When the catalogue keeps changing under one checkout (a price edited twice in a second). */
const CART_CHANGED = 'Your cart changed while you were checking out. Please review it and try again.';

const NO_LONGER_AVAILABLE = 'A product in your cart is no longer available. Please remove it and try again.';

/** Reservation attempts: the first may price from the cached price list; later ones read fresh. */
const MAX_ATTEMPTS = 3;

export interface CheckoutAnswer extends StoredAnswer {
  replayed: boolean;
}

export interface PlaceOrderOptions {
  idempotencyKey: string;
  requestHash: string;
  userId: string | null;
  /** Set when the order starts a subscription. */
  plan?: (NewPlan & { consent: ConsentAct }) | null;
}

/** When and from which browser the shopper subscribed; the terms and figures are the server's. */
export interface ConsentAct {
  agreedAt: Date;
  userAgent: string | null;
  ipAddress: string | null;
}

/** A refusal decided before anything was written; its answer becomes the key's stored answer. */
class Refusal extends AppError {}
const refuse = (code: ErrorCode, message: string, details?: Record<string, unknown>): never => {
  throw new Refusal(code, message, details);
};

/** A priced order, ready for the reservation transaction. */
interface PricedOrder {
  order: PendingOrder;
  stock: PricedStockLine[];
  singleUsePromoId: number | null;
  /** For a plan: what each renewal charges today (the subscriber price, without the first delivery's promo), taxed for the address: the terms' figure. */
  renewalAmount: Cents | null;
  /** For a plan: its stored price (pricing.ts `planAmount`: the renewal under the flat rule). */
  planAmount: Cents | null;
}

async function placeOrder(deps: CheckoutDeps, request: OrderRequest, options: PlaceOrderOptions): Promise<CheckoutAnswer> {
  const { gateway, pool } = deps;
  if (!gateway) throw new AppError('PAYMENTS_UNAVAILABLE', CHECKOUT_MESSAGES.paymentsUnavailable);
  const plan = options.plan ?? null;
  const claim = { scope: plan ? SUBSCRIBE_SCOPE : CHECKOUT_SCOPE, key: options.idempotencyKey, requestHash: options.requestHash };
  const replay = (answer: StoredAnswer, replayed: boolean): CheckoutAnswer => ({ ...answer, replayed });
  const answerRefusal = async (answer: StoredAnswer): Promise<CheckoutAnswer> => {
    const stored = await storeAnswer(pool, claim.scope, claim.key, claim.requestHash, answer, IDEMPOTENCY_MESSAGES);
    // An earlier answer under this key wins; otherwise ours (stored, or the key was given back meanwhile).
    return stored.kind === 'replay' ? replay(stored.answer, true) : replay(answer, false);
  };

  // Store credit pays a signed-in shopper's order first (not a new plan's first delivery: its card is
  // charged and stored for the renewals, which spend credit themselves). Read here only to know whether
  // to spend: the reservation spends what there is then, under the balance row's lock.
  const creditUserId = !plan && options.userId && (await creditBalance(pool, options.userId)) > 0 ? options.userId : null;
  if (!request.opaqueData && !creditUserId) return answerRefusal(errorAnswer(cardMissing()));

  // One id for every attempt of this request, so whatever is recorded names the order the answer names.
  const orderId = randomUUID();
  let reserved: PricedOrder | null = null;
  for (let attempt = 1; !reserved; attempt++) {
    if (attempt > MAX_ATTEMPTS) return answerRefusal(errorAnswer(new AppError('CART_CHANGED', CART_CHANGED)));
    let candidate: PricedOrder;
    try {
      candidate = await prepareOrder(deps, request, { orderId, userId: options.userId, subscribe: plan !== null }, attempt > 1);
    } catch (error) {
      if (error instanceof Refusal) return answerRefusal(errorAnswer(error));
      throw error;
    }
    const outcome = await reserveOrder(pool, { claim, ...candidate, creditUserId });
    if (outcome === 'reserved') reserved = candidate;
    else if (outcome === 'key-taken') {
      const stored = await awaitStoredAnswer(pool, claim.scope, claim.key, claim.requestHash, IDEMPOTENCY_MESSAGES);
      if (stored.kind === 'replay') return replay(stored.answer, true);
    } else if (outcome === 'promo-spent') return answerRefusal(errorAnswer(new AppError('PROMO_INVALID', CHECKOUT_MESSAGES.promoInvalid, { promoCode: request.promoCode })));
    // Otherwise stock or a price changed since the price list was read (or the key was given back):
    // plan again from a fresh read, which names any refusal.
  }

  const { customer } = request;
  const creditApplied = creditUserId ? await orderCreditApplied(pool, orderId) : 0;
  const toCharge = reserved.order.total - creditApplied;
  const charge =
    toCharge === 0
      ? paidByCredit(gateway)
      : !request.opaqueData
        ? // The credit no longer covers the order (spent meanwhile): cancelled, the credit given back.
          failedCharge(gateway.environment, 'error', CHECKOUT_MESSAGES.cardRequired, 'card-missing')
        : await chargeOnce(gateway, {
    amount: toCharge,
    invoiceNumber: orderInvoiceNumber(orderId),
    description: plan ? `${STORE_CODE} subscription ${plan.subscriptionId.slice(0, 8)}` : `${STORE_CODE} order ${orderId.slice(0, 8)}`,
    email: customer.email,
    billTo: { firstName: customer.firstName, lastName: customer.lastName, address: customer.address, city: customer.city, state: customer.state, zip: customer.zip },
    opaqueData: request.opaqueData,
    ...(plan ? { createProfile: true, customerId: plan.customerId } : {}),
  });
  const answer = answerFor(deps.log, orderId, plan, charge, { applied: creditApplied, charged: toCharge });
  checkoutsTotal.inc({ outcome: CHECKOUT_OUTCOME[charge.outcome], kind: plan ? 'subscribe' : 'checkout' });
  await recordOutcome(deps, claim, reserved, plan, charge, answer, toCharge);
  return replay(answer, false);
}

/** What pricing needs to know besides the cart. */
interface PricingContext {
  orderId: string;
  userId: string | null;
  /** Subscribe & Save pricing: 15% off, free shipping. */
  subscribe: boolean;
}

/**
 * Prices the cart. From the cached price list a cart that looks refusable is priced again from a
 * fresh read before anything is refused (the cache may be a few seconds behind); stock is only
 * judged on a fresh read, since the reservation guard decides sales.
 */
async function prepareOrder(deps: CheckoutDeps, request: OrderRequest, c: PricingContext, fresh: boolean): Promise<PricedOrder> {
  const { productIds, quantities } = stockByProduct(request.items);

  const products = await deps.priceList.get(productIds, { fresh });
  try {
    if (fresh) refuseShortStock(productIds, quantities, products);
    const { items, lines } = priceLines(request.items, productIds, products);
    return await priceOrder(deps, request, c, { items, lines, products, productIds, quantities });
  } catch (error) {
    // A fresh read could not make an address shippable: that refusal stands as it is.
    if (error instanceof Refusal && error.code !== 'SHIPPING_UNAVAILABLE' && !fresh) return prepareOrder(deps, request, c, true);
    throw error;
  }
}

/** Refuses the first product (in id order) that is gone or short of stock, naming it. */
function refuseShortStock(productIds: number[], quantities: number[], products: Map<number, PricedProduct>): void {
  const short = productIds.map((id, i) => ({ id, product: products.get(id), quantity: quantities[i]! })).filter(({ product, quantity }) => !product || product.status !== 'active' || product.inventory < quantity);
  if (!short.length) return;
  const first = short.find(({ product }) => product && product.status !== 'inactive');
  if (!first) refuse('PRODUCT_UNAVAILABLE', NO_LONGER_AVAILABLE, { productIds: short.map((s) => s.id) });
  const product = first!.product!;
  const left = product.status === 'active' ? product.inventory : 0;
  refuse(
    'OUT_OF_STOCK',
    left > 0
      ? `Only ${left} of "${product.name}" left in stock. Please reduce the quantity and try again.`
      : `"${product.name}" is out of stock. Please remove it from your cart and try again.`,
    { productId: product.id, available: left },
  );
}

/** Every line priced from the catalogue; a line whose price the browser showed differently is refused. */
function priceLines(cart: OrderItemInput[], productIds: number[], products: Map<number, PricedProduct>) {
  const unavailable = productIds.filter((id) => products.get(id)?.status !== 'active');
  if (unavailable.length) refuse('PRODUCT_UNAVAILABLE', NO_LONGER_AVAILABLE, { productIds: unavailable });
  const items: LineItem[] = [];
  const lines: CheckoutLine[] = [];
  const changed: Array<{ productId: number; variantSku: string | null; price: string }> = [];
  for (const item of cart) {
    const product = products.get(item.productId)!;
    const variantSku = item.variantSku ?? null;
    const variant = variantSku ? product.variants.find((v) => v.sku === variantSku) : undefined;
    if (variantSku && !variant) refuse('PRODUCT_UNAVAILABLE', `The selected size of "${product.name}" is no longer available. Please update your cart.`, { productId: product.id, variantSku });
    const line = catalogueLine(product, variant ?? null, item.quantity);
    const unit = toCents(line.price);
    if (toCents(item.price) !== unit) changed.push({ productId: product.id, variantSku, price: line.price });
    items.push(line);
    lines.push({ productId: product.id, price: unit, quantity: item.quantity });
  }
  if (changed.length) {
    const first = items.find((i) => i.productId === changed[0]!.productId && i.variantSku === changed[0]!.variantSku)!;
    refuse('PRICE_CHANGED', `The price of "${first.productName}" is now ${formatCents(toCents(first.price))}. Please review your cart and try again.`, { prices: changed });
  }
  return { items, lines };
}

interface PricedLines {
  items: LineItem[];
  lines: CheckoutLine[];
  products: Map<number, PricedProduct>;
  productIds: number[];
  quantities: number[];
}

/** Applies the promo code, refuses totals that differ from the browser's, and builds the order. */
async function priceOrder(deps: CheckoutDeps, request: OrderRequest, c: PricingContext, p: PricedLines): Promise<PricedOrder> {
  let promo: PricingPromo | null = null;
  let singleUsePromoId: number | null = null;
  if (request.promoCode) {
    const row = await findUsablePromo(deps.pool, request.promoCode);
    if (!row) return refuse('PROMO_INVALID', CHECKOUT_MESSAGES.promoInvalid, { promoCode: request.promoCode });
    promo = { discountType: row.discountType, discountValue: row.discountValue };
    if (row.singleUse) singleUsePromoId = row.id;
  }

  // Priced for where the parcel goes (issue 25): the zone's shipping and the destination's tax.
  const to = { state: request.shippingAddress.state, zip: request.shippingAddress.zip };
  const { pricing, renewal, planAmount } = await priceCheckout(deps.tax, p.lines, { promo, subscribe: c.subscribe, shippingMethod: request.shippingMethod, to });
  if (pricing.shippingRefusal) {
    const { message } = pricing.shippingRefusal;
    refuse('SHIPPING_UNAVAILABLE', message, { fields: { [refusalField(pricing)]: message } });
  }
  const expected = toPayloadStrings(pricing);
  const shown = request.summary;
  const summaryDiffers = shown !== null && (Object.keys(shown) as Array<keyof typeof shown>).some((k) => toCents(shown[k]) !== toCents(expected[k]));
  const differs = summaryDiffers || toCents(request.amount) !== pricing.total;
  if (differs) {
    refuse(
      'CHECKOUT_TOTAL_CHANGED',
      `Your order total has changed to ${formatCents(pricing.total)} (the checkout showed ${formatCents(toCents(request.amount))}). Please review your order and try again.`,
      { expected },
    );
  }

  const { customer } = request;
  const order: PendingOrder = {
    id: c.orderId,
    storeCode: STORE_CODE,
    userId: c.userId,
    customerEmail: customer.email.toLowerCase(),
    customerName: `${customer.firstName} ${customer.lastName}`,
    shippingAddress: request.shippingAddress,
    billingAddress: request.billingAddress,
    // Each line's tax kept with it (issue 25), as a two-decimal string like its price.
    items: p.items.map((item, i) => ({ ...item, tax: centsToDecimal(pricing.lineTaxes[i]!) })),
    subtotal: pricing.subtotal,
    subscribeDiscount: pricing.subscribeDiscount,
    promoDiscount: pricing.promoDiscount,
    shipping: pricing.shipping,
    tax: pricing.tax,
    total: pricing.total,
    promoCode: promo ? request.promoCode : null,
    shippingMethod: pricing.delivery?.method ?? 'standard',
    shippingTax: pricing.shippingTax,
    taxSource: pricing.taxSource,
  };
  const stock = p.productIds.map((id, i) => {
    const product = p.products.get(id)!;
    return { productId: id, quantity: p.quantities[i]!, priceText: product.priceText, variantsJson: product.variantsJson };
  });
  return { order, stock, singleUsePromoId, renewalAmount: renewal ? renewal.total : null, planAmount };
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
  if (second.duplicate) return approvedByDuplicate(second);
  if (second.outcome === 'approved' || second.outcome === 'declined' || second.outcome === 'held') return second;
  return first;
}

/** `nh_checkouts_total`'s outcome of a charge: held for review is an approval (the order goes ahead). */
const CHECKOUT_OUTCOME: Record<ChargeResult['outcome'], CheckoutOutcome> = { approved: 'approved', held: 'approved', declined: 'declined', error: 'error', unknown: 'unknown' };

/** An order whose store credit paid all of it: no card, nothing asked of the gateway. */
const paidByCredit = (gateway: PaymentGateway): ChargeResult => ({
  outcome: 'approved',
  responseCode: null,
  message: CHECKOUT_MESSAGES.paidByCredit,
  errorCode: null,
  transactionId: null,
  cardType: null,
  lastFour: null,
  duplicate: false,
  profile: null,
  environment: gateway.environment,
});

const cardMissing = () => new Refusal('VALIDATION_FAILED', CHECKOUT_MESSAGES.cardRequired, { fields: { dataValue: CHECKOUT_MESSAGES.cardRequired } });

function answerFor(log: Logger, orderId: string, plan: NewPlan | null, charge: ChargeResult, credit: { applied: Cents; charged: Cents } = { applied: 0, charged: 0 }): StoredAnswer {
  switch (charge.outcome) {
    case 'approved':
    case 'held': {
      if (!plan) return { status: 200, body: credit.applied > 0 ? { orderId, creditApplied: centsToDecimal(credit.applied), charged: centsToDecimal(credit.charged) } : { orderId } };
      const body: SubscribeNonceResponse = { subscriptionId: plan.subscriptionId, orderId, nextBillingDate: plan.nextBillingDate.toISOString() };
      return { status: 200, body };
    }
    case 'unknown':
      return errorAnswer(new AppError('PAYMENT_OUTCOME_UNKNOWN', GATEWAY_MESSAGES.unknown, { responseMessage: GATEWAY_MESSAGES.unknown, orderId }));
    default:
      if (charge.errorCode === 'E00007') {
        log.error({ orderId }, 'Authorize.Net refused our credentials (E00007): check AUTHNET_API_LOGIN_ID and AUTHNET_TRANSACTION_KEY');
        return errorAnswer(new AppError('PAYMENTS_UNAVAILABLE', CHECKOUT_MESSAGES.paymentsUnavailable));
      }
      return errorAnswer(new AppError('PAYMENT_DECLINED', charge.message, { responseMessage: charge.message }));
  }
}

async function recordOutcome(deps: CheckoutDeps, claim: { scope: string; key: string }, reserved: PricedOrder, plan: (NewPlan & { consent: ConsentAct }) | null, charge: ChargeResult, answer: StoredAnswer, charged: Cents): Promise<void> {
  const { order } = reserved;
  const orderId = order.id;
  // Only an accepted charge starts the plan; any other payment row belongs to the order alone.
  const accepted = isAcceptedCharge(charge.outcome);
  const planned = accepted ? plan : null;
  const payment: PaymentRecord = {
    orderId,
    subscriptionId: planned?.subscriptionId ?? null,
    billingPeriod: planned?.billingPeriod ?? null,
    transactionId: charge.transactionId,
    invoiceNumber: orderInvoiceNumber(orderId),
    // What the card was asked for: the total less the store credit spent (0 when credit paid it all).
    amount: charged,
    status: PAYMENT_STATUS_OF[charge.outcome],
    responseCode: charge.responseCode ?? charge.errorCode,
    responseMessage: charge.message,
    cardType: charge.cardType,
    lastFour: charge.lastFour,
    environment: charge.environment,
  };
  const idem = { scope: claim.scope, key: claim.key, ...answer };
  const { pool } = deps;
  // Each outcome is one statement (one atomic commit, one round trip).
  const write = () => {
    if (accepted) {
      const outbox: OutboxRecord[] = [{ topic: OUTBOX_TOPICS.orderPlaced, payload: { orderId } }];
      if (planned) outbox.push({ topic: OUTBOX_TOPICS.subscriptionCreated, payload: { subscriptionId: planned.subscriptionId } });
      // A plan whose card the gateway did not store is still made (the card was charged, the first box
      // ships) without a profile: the renewals worker pauses it and tells the customer.
      const subscription = planned && {
        id: planned.subscriptionId,
        userId: planned.userId,
        customerProfileId: charge.profile?.customerProfileId ?? null,
        paymentProfileId: charge.profile?.paymentProfileId ?? null,
        customerEmail: order.customerEmail,
        customerName: order.customerName,
        items: order.items,
        interval: planned.interval,
        intervalCount: planned.intervalCount,
        amount: reserved.planAmount ?? order.total,
        discountPercent: planned.discountPercent,
        nextBillingDate: planned.nextBillingDate,
        shippingAddress: order.shippingAddress,
        // The terms as checkout showed them, with the server's price (never the browser's).
        consent: {
          termsVersion: SUBSCRIPTION_TERMS_VERSION,
          termsText: subscriptionTermsText({ renewalAmount: reserved.renewalAmount ?? order.total, interval: planned.interval, intervalCount: planned.intervalCount }),
          ...planned.consent,
        },
      };
      return recordAcceptedPayment(pool, payment, acceptedOrderStatus(charge.outcome), outbox, idem, subscription);
    }
    // Unknown: money may have been taken, so the order and its stock stay pending until the workers'
    // payment reconciliation (maintenance queue) asks the gateway what became of the charge.
    if (charge.outcome === 'unknown') return recordAcceptedPayment(pool, payment, 'pending', [], idem);
    return recordFailedPayment(pool, payment, reserved.stock.map((l) => l.productId), reserved.stock.map((l) => l.quantity), idem);
  };
  // After a charge, recording it must not be lost to a passing database hiccup.
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (attempt >= 3) {
        deps.log.error({ err: error, orderId, subscriptionId: planned?.subscriptionId, transactionId: charge.transactionId, outcome: charge.outcome }, 'could not record a payment outcome: reconcile this order by hand');
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
