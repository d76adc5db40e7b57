/**
 * The local sandbox: a payment gateway that needs no outside account. Our API serves an
 * Accept.js-compatible script whose `dispatchData` posts the card fields to `tokenize` here; the
 * card is validated like Accept.js does and only brand, last four, ZIP and the card-code check are
 * kept, under a single-use token that lives 15 minutes (Redis). Charges follow the Authorize.Net
 * sandbox conventions: billing ZIP 46282 declines, card code 901 fails the CVV check, a repeat of the
 * same invoice and amount inside the duplicate window is error 11. Each decided charge is kept by its
 * invoice number for 48 hours, for findCharge (the payment reconciliation). Storing a card without a
 * charge (storeCard) uses the token up and refuses a card by the same rules.
 *
 * Refunds and voids (docs/decisions/refunds.md): each approved charge is also kept by its transaction
 * id for 180 days (Authorize.Net's refund window). It settles `settleAfterMinutes` after it was made
 * (PAYMENTS_SANDBOX_SETTLE_MINUTES, default 10), or at once through `settle(transactionId)` (the test
 * hook). Before that it can only be voided, after it only refunded, as at Authorize.Net: a refund of an
 * unsettled charge is error 54, a void of a settled one error 16, a void repeated 310, refunds beyond
 * what was captured 55, and a repeat of one refund (same invoice number and amount) inside the
 * duplicate window 11.
 *
 * A stored card's expiry (storedCardExpiry) is the month and year typed with the card when it was
 * tokenised, kept with the profile as Authorize.Net keeps it; a profile stored before the sandbox kept
 * expiries, or an unknown profile, answers null.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { RedisClient } from '../runtime/redis';
import { cardBrand, cardCodeLength, lastFour, luhnValid, type CardBrand } from './card-brand';
import {
  cardExpiry,
  failedRefund,
  failedStore,
  GATEWAY_MESSAGES,
  REFUND_GATEWAY_MESSAGES,
  type CardExpiry,
  type ChargeCommon,
  type ChargeSettlement,
  type ChargeResult,
  type FoundCharge,
  type OpaqueChargeRequest,
  type PaymentGateway,
  type ProfileChargeRequest,
  type RefundRequest,
  type RefundResult,
  type StoredPaymentProfile,
  type StoreCardRequest,
  type StoreCardResult,
} from './gateway';

export const SANDBOX_DATA_DESCRIPTOR = 'COMMON.ACCEPT.INAPP.PAYMENT';
export const SANDBOX_CLIENT_KEY = 'local-sandbox-client-key';
export const SANDBOX_API_LOGIN_ID = 'local-sandbox';
export const SANDBOX_TOKEN_TTL_SECONDS = 15 * 60;
export const SANDBOX_DECLINE_ZIP = '46282';
export const SANDBOX_CVV_MISMATCH = '901';
/** How long a charge stays findable by its invoice number (findCharge promises CHARGE_LOOKUP_HOURS). */
export const CHARGE_RECORD_TTL_SECONDS = 48 * 3600;
/** How long an approved charge can be refunded (Authorize.Net: 180 days). */
export const SANDBOX_REFUND_WINDOW_SECONDS = 180 * 86_400;
/** Minutes after which a sandbox charge counts as settled (PAYMENTS_SANDBOX_SETTLE_MINUTES). */
export const SANDBOX_SETTLE_AFTER_MINUTES = 10;

/** Accept.js error codes and texts. */
export const ACCEPT_ERRORS = {
  cardNumber: { code: 'E_WC_05', text: 'Please provide valid credit card number.' },
  month: { code: 'E_WC_06', text: 'Please provide valid expiration month.' },
  year: { code: 'E_WC_07', text: 'Please provide valid expiration year.' },
  expired: { code: 'E_WC_08', text: 'Expiration date must be in the future.' },
  apiLoginId: { code: 'E_WC_10', text: 'Please provide valid apiLoginID.' },
  cardCode: { code: 'E_WC_15', text: 'Please provide valid CVV.' },
  zip: { code: 'E_WC_16', text: 'Please provide valid Zip code.' },
  clientKey: { code: 'E_WC_19', text: 'Please provide valid client key.' },
  auth: { code: 'E_WC_21', text: 'User authentication failed due to invalid authentication values.' },
} as const;

export interface AcceptSecureData {
  authData?: { clientKey?: unknown; apiLoginID?: unknown };
  cardData?: { cardNumber?: unknown; month?: unknown; year?: unknown; cardCode?: unknown; zip?: unknown };
}

export type AcceptAnswer =
  | { opaqueData: { dataDescriptor: string; dataValue: string }; messages: { resultCode: 'Ok'; message: Array<{ code: string; text: string }> } }
  | { messages: { resultCode: 'Error'; message: Array<{ code: string; text: string }> } };

interface StoredToken {
  brand: CardBrand | null;
  lastFour: string;
  zip: string | null;
  /** M = card code matched, N = did not (sandbox card code 901). */
  cvv: 'M' | 'N';
  /** The expiry typed with the card (absent from tokens and profiles kept before the sandbox kept it). */
  expiry?: CardExpiry;
}

/** An approved charge as kept by transaction id, for settlementOf, refund and voidCharge. */
interface KeptCharge {
  amount: number;
  lastFour: string;
  /** Epoch milliseconds. */
  at: number;
}

/** An approved sandbox charge, kept in memory so tests and the bench can count charges. */
export interface SandboxCharge {
  transactionId: string;
  invoiceNumber: string;
  amount: number;
  lastFour: string;
  at: number;
}

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/** Validates card fields as Accept.js does; answers every problem at once. */
export function validateCardData(secure: AcceptSecureData, now = new Date()): Array<{ code: string; text: string }> {
  const card = secure.cardData ?? {};
  const errors: Array<{ code: string; text: string }> = [];
  const number = str(card.cardNumber).replace(/[\s-]/g, '');
  if (!luhnValid(number) || number.length < 13) errors.push(ACCEPT_ERRORS.cardNumber);
  const monthText = str(card.month);
  const month = Number(monthText);
  const monthOk = /^\d{1,2}$/.test(monthText) && month >= 1 && month <= 12;
  if (!monthOk) errors.push(ACCEPT_ERRORS.month);
  const yearText = str(card.year);
  const yearOk = /^(\d{2}|\d{4})$/.test(yearText);
  if (!yearOk) errors.push(ACCEPT_ERRORS.year);
  if (monthOk && yearOk) {
    const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
    // A card is good through the last day of its expiry month.
    if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) errors.push(ACCEPT_ERRORS.expired);
  }
  const code = str(card.cardCode);
  if (code && (!/^\d+$/.test(code) || code.length !== cardCodeLength(cardBrand(number)))) errors.push(ACCEPT_ERRORS.cardCode);
  const zip = str(card.zip);
  if (zip && !/^[A-Za-z0-9 -]{1,20}$/.test(zip)) errors.push(ACCEPT_ERRORS.zip);
  return errors;
}

export interface LocalSandboxOptions {
  redis: RedisClient;
  /** Redis key prefix (tests use their own). */
  keyPrefix: string;
  duplicateWindowSeconds?: number;
  /** Artificial gateway latency, to make a benchmark honest about the network round trip. */
  latencyMs?: number;
  /** A charge counts as settled this many minutes after it was made (default SANDBOX_SETTLE_AFTER_MINUTES). */
  settleAfterMinutes?: number;
}

export class LocalSandboxGateway implements PaymentGateway {
  readonly kind = 'local-sandbox' as const;
  readonly environment = 'sandbox' as const;
  /** Approved charges made by this process (newest last, capped). */
  readonly charges: SandboxCharge[] = [];
  private readonly duplicateWindow: number;
  private readonly settleAfterMs: number;

  constructor(private readonly options: LocalSandboxOptions) {
    this.duplicateWindow = Math.min(28_800, Math.max(0, options.duplicateWindowSeconds ?? 600));
    this.settleAfterMs = Math.max(0, options.settleAfterMinutes ?? SANDBOX_SETTLE_AFTER_MINUTES) * 60_000;
  }

  private key(kind: string, id: string): string {
    return `${this.options.keyPrefix}:pay-sandbox:${kind}:${id}`;
  }

  /** The tokeniser behind the sandbox Accept.js script. The card number is never stored or logged. */
  async tokenize(secure: AcceptSecureData): Promise<AcceptAnswer> {
    const auth = secure.authData ?? {};
    const authErrors = [];
    if (str(auth.apiLoginID) !== SANDBOX_API_LOGIN_ID) authErrors.push(ACCEPT_ERRORS.apiLoginId);
    if (str(auth.clientKey) !== SANDBOX_CLIENT_KEY) authErrors.push(ACCEPT_ERRORS.clientKey);
    const errors = [...authErrors, ...validateCardData(secure)];
    if (errors.length) return { messages: { resultCode: 'Error', message: errors } };

    const number = str(secure.cardData?.cardNumber).replace(/[\s-]/g, '');
    const zip = str(secure.cardData?.zip);
    const yearText = str(secure.cardData?.year);
    const expiry = cardExpiry(Number(str(secure.cardData?.month)), yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText));
    const token: StoredToken = {
      brand: cardBrand(number),
      lastFour: lastFour(number),
      zip: zip || null,
      cvv: str(secure.cardData?.cardCode) === SANDBOX_CVV_MISMATCH ? 'N' : 'M',
      ...(expiry ? { expiry } : {}),
    };
    const dataValue = `sbx_${randomBytes(32).toString('base64url')}`;
    await this.options.redis.set(this.key('token', dataValue), JSON.stringify(token), 'EX', SANDBOX_TOKEN_TTL_SECONDS);
    return {
      opaqueData: { dataDescriptor: SANDBOX_DATA_DESCRIPTOR, dataValue },
      messages: { resultCode: 'Ok', message: [{ code: 'I_WC_01', text: 'Successful.' }] },
    };
  }

  async chargeOpaqueData(request: OpaqueChargeRequest): Promise<ChargeResult> {
    // The sandbox records a charge only after every Redis step succeeded: a Redis failure charged nothing.
    return this.chargeOpaque(request).catch(() => this.error('E00001', GATEWAY_MESSAGES.unreachable));
  }

  private async chargeOpaque(request: OpaqueChargeRequest): Promise<ChargeResult> {
    await this.latency();
    if (request.opaqueData.dataDescriptor !== SANDBOX_DATA_DESCRIPTOR) return this.error('E00117', 'Invalid OTS Service.');
    // Single use: the token is taken and deleted in one step.
    const raw = await this.options.redis.getdel(this.key('token', request.opaqueData.dataValue));
    if (!raw) return this.error('E00114', GATEWAY_MESSAGES.invalidToken);
    const token = JSON.parse(raw) as StoredToken;
    const result = await this.decide(request, token);
    if (result.outcome === 'approved' && request.createProfile) return { ...result, profile: await this.saveProfile(token) };
    return result;
  }

  /**
   * Stores a card without charging it, as Authorize.Net's createCustomerProfileRequest with validation:
   * the token is used up, and the card is refused by the same rules as a charge (billing ZIP 46282,
   * card code 901), or kept as a profile chargeProfile can charge.
   */
  async storeCard(request: StoreCardRequest): Promise<StoreCardResult> {
    return this.store(request).catch(() => failedStore('error', GATEWAY_MESSAGES.unreachable, 'E00001'));
  }

  private async store(request: StoreCardRequest): Promise<StoreCardResult> {
    await this.latency();
    if (request.opaqueData.dataDescriptor !== SANDBOX_DATA_DESCRIPTOR) return failedStore('error', 'Invalid OTS Service.', 'E00117');
    const raw = await this.options.redis.getdel(this.key('token', request.opaqueData.dataValue));
    if (!raw) return failedStore('error', GATEWAY_MESSAGES.invalidToken, 'E00114');
    const token = JSON.parse(raw) as StoredToken;
    const card = { cardType: token.brand, lastFour: token.lastFour };
    if (refusal(request.billTo.zip, token)) return { ...failedStore('declined', GATEWAY_MESSAGES.declined, 'E00027'), ...card };
    return { outcome: 'stored', profile: await this.saveProfile(token), message: 'Successful.', errorCode: null, ...card };
  }

  /** Keeps a card (what its token knew) as a customer payment profile, for chargeProfile. */
  private async saveProfile(token: StoredToken): Promise<StoredPaymentProfile> {
    const profile = { customerProfileId: String(randomNumber()), paymentProfileId: String(randomNumber()) };
    await this.options.redis.set(this.key('profile', `${profile.customerProfileId}:${profile.paymentProfileId}`), JSON.stringify(token));
    return profile;
  }

  async chargeProfile(request: ProfileChargeRequest): Promise<ChargeResult> {
    return this.chargeStored(request).catch(() => this.error('E00001', GATEWAY_MESSAGES.unreachable));
  }

  private async chargeStored(request: ProfileChargeRequest): Promise<ChargeResult> {
    await this.latency();
    const raw = await this.options.redis.get(this.key('profile', `${request.profile.customerProfileId}:${request.profile.paymentProfileId}`));
    if (!raw) return this.error('E00040', 'The record cannot be found.');
    return this.decide(request, { ...(JSON.parse(raw) as StoredToken), cvv: 'M' });
  }

  /** The expiry typed with the stored card when it was tokenised; null for an unknown profile. Throws when Redis cannot be read. */
  async storedCardExpiry(profile: StoredPaymentProfile): Promise<CardExpiry | null> {
    await this.latency();
    const raw = await this.options.redis.get(this.key('profile', `${profile.customerProfileId}:${profile.paymentProfileId}`));
    if (!raw) return null;
    const expiry = (JSON.parse(raw) as StoredToken).expiry;
    return expiry ? cardExpiry(expiry.month, expiry.year) : null;
  }

  /** The charge on record for an invoice (kept CHARGE_RECORD_TTL_SECONDS), as Authorize.Net's transaction lists would show it. */
  async findCharge(invoiceNumber: string): Promise<FoundCharge | null> {
    await this.latency();
    const raw = await this.options.redis.get(this.key('charge', invoiceNumber));
    return raw ? (JSON.parse(raw) as FoundCharge) : null;
  }

  /**
   * Keeps a decided charge (one with a transaction id) by invoice number, for findCharge. An approved
   * charge replaces whatever was kept (written with its transaction in decide); a declined one never
   * replaces an earlier record, so the charge that took money is the one found.
   */
  private async rememberDeclined(request: ChargeCommon, result: ChargeResult): Promise<ChargeResult> {
    const found: FoundCharge = { ...result, amount: request.amount };
    await this.options.redis.set(this.key('charge', request.invoiceNumber), JSON.stringify(found), 'EX', CHARGE_RECORD_TTL_SECONDS, 'NX');
    return result;
  }

  private async decide(request: ChargeCommon, token: StoredToken): Promise<ChargeResult> {
    const base = { cardType: token.brand, lastFour: token.lastFour, profile: null, environment: this.environment };
    const refused = refusal(request.billTo.zip, token);
    if (refused) {
      return this.rememberDeclined(request, { ...base, outcome: 'declined', responseCode: '2', message: GATEWAY_MESSAGES.declined, errorCode: refused, transactionId: String(randomNumber()), duplicate: false });
    }
    // The duplicate window: the same invoice, amount and card inside it is error 11, never a second charge.
    const fingerprint = `${request.invoiceNumber}:${request.amount}:${token.lastFour}`;
    if (this.duplicateWindow > 0) {
      const fresh = await this.options.redis.set(this.key('dup', fingerprint), '1', 'EX', this.duplicateWindow, 'NX');
      if (fresh === null) {
        return { ...base, outcome: 'error', responseCode: '3', message: GATEWAY_MESSAGES.duplicate, errorCode: '11', transactionId: null, duplicate: true };
      }
    }
    const transactionId = String(randomNumber());
    const kept: KeptCharge = { amount: request.amount, lastFour: token.lastFour, at: Date.now() };
    const result: ChargeResult = { ...base, outcome: 'approved', responseCode: '1', message: GATEWAY_MESSAGES.approved, errorCode: null, transactionId, duplicate: false };
    const found: FoundCharge = { ...result, amount: request.amount };
    // The transaction and its record by invoice number in one round trip (one per Redis command was a
    // visible share of the checkout benchmark, whose gateway this is).
    await this.options.redis
      .multi()
      .set(this.key('txn', transactionId), JSON.stringify(kept), 'EX', SANDBOX_REFUND_WINDOW_SECONDS)
      .set(this.key('charge', request.invoiceNumber), JSON.stringify(found), 'EX', CHARGE_RECORD_TTL_SECONDS)
      .exec();
    this.charges.push({ transactionId, invoiceNumber: request.invoiceNumber, amount: request.amount, lastFour: token.lastFour, at: Date.now() });
    if (this.charges.length > 100_000) this.charges.splice(0, this.charges.length - 100_000);
    return result;
  }

  // ---- Refunds and voids ----

  /** The test hook: the charge settles now (as if the daily batch had closed). False when there is no such charge or it was voided. */
  async settle(transactionId: string): Promise<boolean> {
    if (!(await this.options.redis.exists(this.key('txn', transactionId)))) return false;
    await this.options.redis.set(this.key('txn-state', transactionId), 'settled', 'EX', SANDBOX_REFUND_WINDOW_SECONDS, 'NX');
    return (await this.options.redis.get(this.key('txn-state', transactionId))) === 'settled';
  }

  /** The charge and its state: voided, settled (by the hook or by age), or unsettled. */
  private async kept(transactionId: string): Promise<{ charge: KeptCharge; state: 'unsettled' | 'settled' | 'voided' } | null> {
    const [raw, marked] = await this.options.redis.mget(this.key('txn', transactionId), this.key('txn-state', transactionId));
    if (!raw) return null;
    const charge = JSON.parse(raw) as KeptCharge;
    if (marked === 'voided') return { charge, state: 'voided' };
    return { charge, state: marked === 'settled' || Date.now() - charge.at >= this.settleAfterMs ? 'settled' : 'unsettled' };
  }

  async settlementOf(transactionId: string): Promise<ChargeSettlement> {
    await this.latency();
    const found = await this.kept(transactionId);
    if (!found) return { state: 'not-found', status: 'notFound', amount: null, lastFour: null };
    const status = { unsettled: 'capturedPendingSettlement', settled: 'settledSuccessfully', voided: 'voided' }[found.state];
    return { state: found.state === 'voided' ? 'closed' : found.state, status, amount: found.charge.amount, lastFour: found.charge.lastFour };
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    return this.refundKept(request).catch(() => failedRefund(this.environment, 'error', REFUND_GATEWAY_MESSAGES.unreachable, 'E00001'));
  }

  private async refundKept(request: RefundRequest): Promise<RefundResult> {
    await this.latency();
    const found = await this.kept(request.transactionId);
    if (!found || found.charge.lastFour !== request.lastFour) return this.refused('16', 'The transaction cannot be found.');
    if (found.state !== 'settled') return this.refused('54', 'The referenced transaction does not meet the criteria for issuing a credit.');
    if (this.duplicateWindow > 0) {
      const fresh = await this.options.redis.set(this.key('dup-refund', `${request.invoiceNumber}:${request.amount}:${request.lastFour}`), '1', 'EX', this.duplicateWindow, 'NX');
      if (fresh === null) return { ...this.refused('11', GATEWAY_MESSAGES.duplicate), duplicate: true };
    }
    // What was refunded so far goes up first and comes back down when the refund would exceed the charge.
    const refundedKey = this.key('txn-refunded', request.transactionId);
    const refunded = await this.options.redis.incrby(refundedKey, request.amount);
    await this.options.redis.expire(refundedKey, SANDBOX_REFUND_WINDOW_SECONDS);
    if (refunded > found.charge.amount) {
      await this.options.redis.decrby(refundedKey, request.amount);
      await this.options.redis.del(this.key('dup-refund', `${request.invoiceNumber}:${request.amount}:${request.lastFour}`));
      return this.refused('55', 'The sum of credits against the referenced transaction would exceed original debit amount.');
    }
    return this.approvedRefund();
  }

  async voidCharge(transactionId: string): Promise<RefundResult> {
    return this.voidKept(transactionId).catch(() => failedRefund(this.environment, 'error', REFUND_GATEWAY_MESSAGES.unreachable, 'E00001'));
  }

  private async voidKept(transactionId: string): Promise<RefundResult> {
    await this.latency();
    const found = await this.kept(transactionId);
    if (!found) return this.refused('16', 'The transaction cannot be found.');
    if (found.state === 'voided') return { ...this.refused('310', REFUND_GATEWAY_MESSAGES.alreadyVoided), duplicate: true };
    if (found.state === 'settled') return this.refused('16', 'The transaction cannot be found.');
    // Only one of a void and the settlement hook wins.
    const won = await this.options.redis.set(this.key('txn-state', transactionId), 'voided', 'EX', SANDBOX_REFUND_WINDOW_SECONDS, 'NX');
    if (won === null) return this.voidKept(transactionId);
    return this.approvedRefund();
  }

  private approvedRefund(): RefundResult {
    return { outcome: 'approved', responseCode: '1', message: REFUND_GATEWAY_MESSAGES.approved, errorCode: null, transactionId: String(randomNumber()), duplicate: false, environment: this.environment };
  }

  private refused(errorCode: string, message: string): RefundResult {
    return { outcome: 'error', responseCode: '3', message, errorCode, transactionId: null, duplicate: false, environment: this.environment };
  }

  private error(errorCode: string, message: string): ChargeResult {
    return { outcome: 'error', responseCode: '3', message, errorCode, transactionId: null, cardType: null, lastFour: null, duplicate: false, profile: null, environment: this.environment };
  }

  private async latency(): Promise<void> {
    if (this.options.latencyMs) await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs));
  }
}

/**
 * The sandbox's card refusals, for a charge and for storing a card alike: a billing ZIP of 46282
 * declines (reason code 2), whether the request's or the one given with the card when tokenising (a
 * card stored for a plan is billed to the plan's address, but the shopper typed the ZIP with the card);
 * a card code of 901 fails the CVV check (65). Null when the card is accepted.
 */
function refusal(billingZip: string, token: StoredToken): '2' | '65' | null {
  if ([billingZip, token.zip ?? ''].some((zip) => zip.trim() === SANDBOX_DECLINE_ZIP)) return '2';
  if (token.cvv === 'N') return '65';
  return null;
}

/** Transaction ids look like Authorize.Net's: 11 digits. */
function randomNumber(): number {
  return 40_000_000_000 + (parseInt(randomUUID().replace(/-/g, '').slice(0, 10), 16) % 9_999_999_999);
}
