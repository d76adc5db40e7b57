/**
 * The payment gateway seen by the rest of the system. Two implementations: Authorize.Net (through its
 * SDK) and the local sandbox (no outside account; Accept.js-compatible tokens served by our own API).
 * Amounts are integer cents; implementations convert at their edge.
 */

export type PaymentEnvironment = 'sandbox' | 'production';

/**
 * approved: money taken. held: accepted but held for the merchant's review (responseCode 4).
 * declined: the card was refused. error: the gateway refused the request; nothing was charged.
 * unknown: the request may or may not have reached the gateway (timeout, dropped connection):
 * retry only with the same invoice number, so the duplicate window turns a repeat into error 11.
 */
export type ChargeOutcome = 'approved' | 'held' | 'declined' | 'error' | 'unknown';

/** The charge took the money, or holds it for the merchant's review: the order goes ahead. */
export const isAcceptedCharge = (outcome: ChargeOutcome): outcome is 'approved' | 'held' => outcome === 'approved' || outcome === 'held';

export interface BillingDetails {
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

export interface ChargeCommon {
  amount: number;
  /** ≤ 20 characters and stable for one logical charge (ORD-…, S<id>-<yymmdd>). */
  invoiceNumber: string;
  description?: string;
  email: string;
  billTo: BillingDetails;
}

export interface OpaqueChargeRequest extends ChargeCommon {
  opaqueData: { dataDescriptor: string; dataValue: string };
  /** Store the card as a customer payment profile (CIM) for renewals. */
  createProfile?: boolean;
  /** Merchant's customer id for the profile (≤ 20 characters). */
  customerId?: string;
}

export interface StoredPaymentProfile {
  customerProfileId: string;
  paymentProfileId: string;
}

export interface ProfileChargeRequest extends ChargeCommon {
  profile: StoredPaymentProfile;
}

export interface ChargeResult {
  outcome: ChargeOutcome;
  /** Provider's responseCode ('1'..'4'), or null when there was no transaction response. */
  responseCode: string | null;
  /** A sentence from the provider (or ours for transport failures) that can be shown to the shopper. */
  message: string;
  /** Provider error code ('2', '11', 'E00007', …) when not approved. */
  errorCode: string | null;
  transactionId: string | null;
  /** 'Visa', 'MasterCard', 'AmericanExpress', … */
  cardType: string | null;
  /** Last four digits only, never more. */
  lastFour: string | null;
  /** The gateway answered error 11: a charge with this invoice, amount and card was already made. */
  duplicate: boolean;
  /** Present when createProfile was asked for and the gateway made one. */
  profile: StoredPaymentProfile | null;
  environment: PaymentEnvironment;
}

/** A charge the provider has on record (findCharge): its result, and the amount it was for. */
export interface FoundCharge extends ChargeResult {
  /** Cents; null when the provider did not say. */
  amount: number | null;
}

/**
 * How far back findCharge is sure to see: a charge made in the last CHARGE_LOOKUP_HOURS is found
 * (implementations look back further, for margin), so null for an invoice first charged within this
 * window means no charge was made.
 */
export const CHARGE_LOOKUP_HOURS = 24;

/**
 * Storing a card without charging it (a new card for a paused plan): stored means the provider kept it
 * as a customer payment profile that chargeProfile can charge. declined: the provider's check of the
 * card refused it. error: the request was refused (bad credentials, a used token, …); nothing was
 * stored. unknown: no answer came (timeout, dropped connection); a profile may exist that nobody will
 * use, which costs nothing, so asking again (a new token, a new customer id) is safe.
 */
export type StoreCardOutcome = 'stored' | 'declined' | 'error' | 'unknown';

export interface StoreCardRequest {
  opaqueData: OpaqueChargeRequest['opaqueData'];
  /** Merchant's customer id for the new profile (≤ 20 characters, unique per call: Authorize.Net refuses a duplicate, E00039). */
  customerId: string;
  email: string;
  billTo: BillingDetails;
  description?: string;
}

export interface StoreCardResult {
  outcome: StoreCardOutcome;
  /** Present only when stored. */
  profile: StoredPaymentProfile | null;
  /** A sentence from the provider (or ours for transport failures) that can be shown to the shopper. */
  message: string;
  /** Provider error code ('E00027', 'E00007', …, or the transport's) when not stored. */
  errorCode: string | null;
  cardType: string | null;
  lastFour: string | null;
}

export function failedStore(outcome: Exclude<StoreCardOutcome, 'stored'>, message: string, errorCode: string | null = null): StoreCardResult {
  return { outcome, profile: null, message, errorCode, cardType: null, lastFour: null };
}

/**
 * A stored card's billing details from a plan: its customer name split into first and last (a single
 * word is both, the gateway wants both) and its shipping address, as the renewals bill it.
 */
export function planBillTo(customerName: string, address: { address: string; city: string; state: string; zip: string }): BillingDetails {
  const [firstName = customerName, ...rest] = customerName.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') || firstName, address: address.address, city: address.city, state: address.state, zip: address.zip };
}

/**
 * The merchant customer id of a stored card (≤ 20 characters): the user's id, then the plan's (or any
 * id new to this card). The gateway refuses a second profile with the same customer id (E00039, and
 * then stores no card), so a user's second plan, or a new card for a paused one, must not reuse one.
 */
export const profileCustomerId = (userId: string, subscriptionId: string): string => `${userId.replace(/-/g, '').slice(0, 12)}${subscriptionId.replace(/-/g, '').slice(0, 8)}`;

// ---- A stored card's expiry (docs/decisions/subscriptions.md, "Card expiry") ----

/** A card's expiry as the provider keeps it: month 1–12 and a four-digit year. The card is good through the month's last day. */
export interface CardExpiry {
  month: number;
  year: number;
}

/** A valid expiry (month 1–12, a year from 2000 to 2199), or null. */
export function cardExpiry(month: number, year: number): CardExpiry | null {
  return Number.isInteger(month) && Number.isInteger(year) && month >= 1 && month <= 12 && year >= 2000 && year <= 2199 ? { month, year } : null;
}

/** Authorize.Net's unmasked expirationDate, "YYYY-MM" (a masked "XXXX", or anything else, is null). */
export function parseExpirationDate(text: unknown): CardExpiry | null {
  const match = typeof text === 'string' ? /^(\d{4})-(\d{2})$/.exec(text.trim()) : null;
  return match ? cardExpiry(Number(match[2]), Number(match[1])) : null;
}

/** The last day the card is good (yyyy-MM-dd): the last day of its expiry month, as subscriptions.card_expires_on keeps it. */
export function cardExpiresOn({ month, year }: CardExpiry): string {
  const last = new Date(Date.UTC(year, month, 0));
  return last.toISOString().slice(0, 10);
}

// ---- Refunds and voids (docs/decisions/refunds.md) ----

/**
 * Where a charge stands at the provider: `unsettled` (captured, not yet in a settled batch: it can be
 * voided, in full only), `settled` (it can be refunded, in part or in full, up to what it captured),
 * `closed` (voided, declined, expired, …: nothing to give back; `status` says which), or `not-found`.
 */
export type SettlementState = 'unsettled' | 'settled' | 'closed' | 'not-found';

export interface ChargeSettlement {
  state: SettlementState;
  /** The provider's own word for it (capturedPendingSettlement, settledSuccessfully, voided, …). */
  status: string;
  /** What the charge captured, in cents; null when the provider did not say. */
  amount: number | null;
  /** The card's last four digits, when the provider said (a refund needs them). */
  lastFour: string | null;
}

/**
 * approved: the money is on its way back (refund) or the charge is cancelled (void). declined / error:
 * the provider refused; nothing moved. unknown: no answer came; ask again only with the same invoice
 * number (a refund) or the same transaction (a void), so a repeat is refused as a duplicate instead of
 * giving money back twice.
 */
export type RefundOutcome = 'approved' | 'declined' | 'error' | 'unknown';

export interface RefundRequest {
  /** The charge's transaction id. */
  transactionId: string;
  /** Cents, at most what the charge captured less what was refunded already. */
  amount: number;
  /** The charged card's last four digits (Authorize.Net matches them to the charge). */
  lastFour: string;
  /** ≤ 20 characters, stable for one logical refund (refundInvoiceNumber), so a retry is a duplicate. */
  invoiceNumber: string;
}

export interface RefundResult {
  outcome: RefundOutcome;
  /** Provider's responseCode ('1'..'4'), or null when there was no transaction response. */
  responseCode: string | null;
  /** A sentence from the provider (or ours for transport failures) that staff can read. */
  message: string;
  /** Provider error code ('54', '55', '11', 'E00007', …) when not approved. */
  errorCode: string | null;
  /** The refund's or void's own transaction id. */
  transactionId: string | null;
  /** The provider answered error 11 (a refund) or 310 (a void): the same request was made before. */
  duplicate: boolean;
  environment: PaymentEnvironment;
}

export function failedRefund(environment: PaymentEnvironment, outcome: 'error' | 'unknown', message: string, errorCode: string | null = null): RefundResult {
  return { outcome, responseCode: null, message, errorCode, transactionId: null, duplicate: false, environment };
}

/**
 * A refund's stable invoice number: "RFD-" and the first 16 hex digits of its payment row's uuid (20
 * characters). Each refund has its own, so two partial refunds of the same amount are not duplicates of
 * each other, while a retry of one refund is.
 */
export const refundInvoiceNumber = (refundId: string): string => `RFD-${refundId.replace(/-/g, '').slice(0, 16).toUpperCase()}`;

export const REFUND_GATEWAY_MESSAGES = {
  approved: 'This transaction has been approved.',
  unreachable: 'The payment service could not be reached. Nothing was refunded. Please try again.',
  unknown: 'The payment service did not answer, so it is not known whether the money was given back. Check the payment service before trying again.',
  alreadyVoided: 'This transaction has already been voided.',
} as const;

export interface PaymentGateway {
  /** 'authorizenet' or 'local-sandbox'. */
  readonly kind: 'authorizenet' | 'local-sandbox';
  readonly environment: PaymentEnvironment;
  chargeOpaqueData(request: OpaqueChargeRequest): Promise<ChargeResult>;
  chargeProfile(request: ProfileChargeRequest): Promise<ChargeResult>;
  /** Stores a tokenised card as a new customer payment profile without charging it. Never throws for a refusal. */
  storeCard(request: StoreCardRequest): Promise<StoreCardResult>;
  /**
   * The provider's record of a charge made with this invoice number in the last CHARGE_LOOKUP_HOURS,
   * or null when there is none. When several match, the one that took money wins (approved, then
   * held, then declined, then error). Throws when the provider could not be asked: try again later.
   */
  findCharge(invoiceNumber: string): Promise<FoundCharge | null>;
  /**
   * Where a charge stands (unsettled: void it; settled: refund it). Throws when the provider could
   * not be asked: try again later.
   */
  settlementOf(transactionId: string): Promise<ChargeSettlement>;
  /** Gives back part or all of a settled charge. Never throws for a refusal. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Cancels an unsettled charge in full. Never throws for a refusal; a charge voided before answers `duplicate`. */
  voidCharge(transactionId: string): Promise<RefundResult>;
  /**
   * The expiry of a stored card (a customer payment profile), or null when the provider does not say
   * (no such profile, no card in it, an expiry it keeps masked). Throws when the provider could not be
   * asked (no answer, refused credentials): try again later.
   */
  storedCardExpiry(profile: StoredPaymentProfile): Promise<CardExpiry | null>;
}

const OUTCOME_RANK: Record<ChargeOutcome, number> = { approved: 0, held: 1, declined: 2, error: 3, unknown: 4 };

/** Of several charges on record for one invoice, the one that took money (or came closest). */
export function pickFoundCharge(found: readonly FoundCharge[]): FoundCharge | null {
  return found.reduce<FoundCharge | null>((best, c) => (best === null || OUTCOME_RANK[c.outcome] < OUTCOME_RANK[best.outcome] ? c : best), null);
}

/** A stable invoice number for an order: "ORD-" and the first 16 hex digits of its uuid (20 characters). */
export const orderInvoiceNumber = (orderId: string): string => `ORD-${orderId.replace(/-/g, '').slice(0, 16).toUpperCase()}`;

/**
 * A stable invoice number for one billing period of a subscription (20 characters, the gateway's limit):
 * "S", the first 12 hex digits of its uuid, "-", the period's yymmdd. It was "SUB-", 8 hex digits and the
 * period's month: 32 bits gave two plans of 100,000 the same number (bench:renewals found one), and two
 * periods of one plan in one month (a ship-now, a pause resumed) shared one. One invoice number for two
 * charges of the same amount is refused by the gateway's duplicate check, and a lookup by invoice number
 * could take one charge for the other. 48 bits and the whole day make both need the same plan prefix
 * (about 1 in 500 for a million plans) and a period on the same day.
 */
export const subscriptionInvoiceNumber = (subscriptionId: string, period: string): string =>
  `S${subscriptionId.replace(/-/g, '').slice(0, 12).toUpperCase()}-${period.replace(/-/g, '').slice(2, 8)}`;

/** The provider's response code of an approved transaction. */
export const APPROVED_RESPONSE_CODE = '1';

/** Messages of the provider we show as they are. */
export const GATEWAY_MESSAGES = {
  approved: 'This transaction has been approved.',
  declined: 'This transaction has been declined.',
  duplicate: 'A duplicate transaction has been submitted.',
  held: 'This transaction is being held for review.',
  invalidToken: 'Invalid OTS Token.',
  badCredentials: 'User authentication failed due to invalid authentication values.',
  unreachable: 'The payment service could not be reached. You have not been charged. Please try again.',
  unknown: 'We could not confirm your payment with the payment service. Please contact support before trying again.',
  /** storeCard had no answer: nothing was charged, and asking again is safe. */
  storeUnknown: 'The payment service did not answer, so your card was not saved. You have not been charged. Please try again.',
} as const;

export function failedCharge(environment: PaymentEnvironment, outcome: 'error' | 'unknown', message: string, errorCode: string | null = null): ChargeResult {
  return {
    outcome,
    responseCode: null,
    message,
    errorCode,
    transactionId: null,
    cardType: null,
    lastFour: null,
    duplicate: false,
    profile: null,
    environment,
  };
}

/**
 * A duplicate-transaction answer (error 11) to a retry with the same invoice number means the first
 * attempt was charged: recorded as that approval (response code 1), not as the retry's error.
 */
export function approvedByDuplicate(retry: ChargeResult): ChargeResult {
  return { ...retry, outcome: 'approved', responseCode: APPROVED_RESPONSE_CODE, message: GATEWAY_MESSAGES.approved, errorCode: null };
}
