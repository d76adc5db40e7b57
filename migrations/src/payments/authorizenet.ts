/**
 * Authorize.Net through the `authorizenet` SDK, wrapped against its traps (INTEGRATIONS.md):
 * - requests are built with no-argument constructors and setters, so elements keep the schema's order;
 * - each call is a promise with our own timeout that also watches `controller.getError()`, because on a
 *   network error, a non-2xx answer or a timeout the SDK never calls back;
 * - the callback only resolves; the response is parsed outside it (an exception inside is swallowed);
 * - the outcome is decided on `transactionResponse.responseCode`, not on `messages.resultCode`;
 * - every charge carries a stable invoice number and the duplicate window, so a retry after an
 *   unknown outcome is refused with error 11 instead of charging twice;
 * - findCharge looks an invoice number up in the Transaction Reporting lists: the unsettled
 *   transactions, then those of the batches settled in the last two days (a charge made just before
 *   the daily settlement cut-off has left the unsettled list minutes later).
 * - storeCard is a createCustomerProfileRequest with the card's opaque data: a new customer profile
 *   with one payment profile, validated by the gateway (liveMode, a zero-amount authorisation, in
 *   production; testMode in the sandbox) and not charged. A refused validation is an error result,
 *   E00027 with the validation's text: declined.
 * - refunds and voids (docs/decisions/refunds.md): settlementOf reads getTransactionDetailsRequest's
 *   transactionStatus (capturedPendingSettlement: unsettled, void it; settledSuccessfully: settled,
 *   refund it); refund is a refundTransaction with the charge's refTransId, the card's last four digits
 *   and expiration 'XXXX', its own invoice number and the duplicate window (a retry is error 11, not a
 *   second refund); voidCharge is a voidTransaction (a void repeated is error 310: already voided).
 * - storedCardExpiry is a getCustomerPaymentProfileRequest with unmaskExpirationDate (otherwise the
 *   expiry comes back as "XXXX"): paymentProfile.payment.creditCard.expirationDate, "YYYY-MM". No such
 *   profile (E00040) or no readable expiry is null; no answer or any other refusal throws.
 */
import { centsToDecimal, parseCents } from '@nh/shared/money';
import { authorizeNetSdk, sdkConfig, type SdkController, type SdkObject } from './authorizenet-sdk';
import {
  failedCharge,
  failedRefund,
  failedStore,
  GATEWAY_MESSAGES,
  REFUND_GATEWAY_MESSAGES,
  isAcceptedCharge,
  type BillingDetails,
  type ChargeCommon,
  type ChargeOutcome,
  type ChargeResult,
  type CardExpiry,
  type ChargeSettlement,
  type FoundCharge,
  type OpaqueChargeRequest,
  type PaymentEnvironment,
  type PaymentGateway,
  type ProfileChargeRequest,
  type RefundOutcome,
  type RefundRequest,
  type RefundResult,
  type SettlementState,
  type StoreCardRequest,
  type StoreCardResult,
  type StoredPaymentProfile,
  parseExpirationDate,
  pickFoundCharge,
} from './gateway';

export interface AuthorizeNetOptions {
  apiLoginId: string;
  transactionKey: string;
  environment: PaymentEnvironment;
  /** Overrides the API URL (tests point it at a local stub). */
  endpoint?: string;
  /** Our own limit per call; the SDK's default is 120 s. */
  timeoutMs?: number;
  /** Seconds during which a repeat of the same charge is refused with error 11 (0–28,800). */
  duplicateWindowSeconds?: number;
}

/** The SDK's API addresses (read from the SDK when first asked: it loads on first use). */
export const AUTHNET_ENDPOINTS: { readonly sandbox: string; readonly production: string } = {
  get sandbox() {
    return authorizeNetSdk().Constants.endpoint.sandbox;
  },
  get production() {
    return authorizeNetSdk().Constants.endpoint.production;
  },
};
export const ACCEPT_JS_URLS = { sandbox: 'https://jstest.authorize.net/v1/Accept.js', production: 'https://js.authorize.net/v1/Accept.js' } as const;

/** Connection errors that prove the request never reached the gateway. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

type RawCall = { kind: 'response'; body: unknown } | { kind: 'failure'; sent: boolean; reason: string };

/** Transaction Reporting: page size (the API's maximum), batches looked at (settled this long ago), and a bound on pages. */
const REPORT_PAGE = 1000;
const SETTLED_LOOKBACK_MS = 48 * 3600_000;
const MAX_PAGES = 100;

const C = () => authorizeNetSdk().APIContracts;
const controllers = () => authorizeNetSdk().APIControllers;
const make = (name: string): SdkObject => new (C()[name]!)();

/** Accept.js opaque data (the tokenised card) as the SDK's PaymentType. */
function opaquePayment(opaqueData: { dataDescriptor: string; dataValue: string }): SdkObject {
  const opaque = make('OpaqueDataType');
  opaque.setDataDescriptor(opaqueData.dataDescriptor);
  opaque.setDataValue(opaqueData.dataValue);
  const payment = make('PaymentType');
  payment.setOpaqueData(opaque);
  return payment;
}

export class AuthorizeNetGateway implements PaymentGateway {
  readonly kind = 'authorizenet' as const;
  readonly environment: PaymentEnvironment;
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly duplicateWindow: number;

  constructor(private readonly options: AuthorizeNetOptions) {
    this.environment = options.environment;
    this.endpoint = options.endpoint ?? AUTHNET_ENDPOINTS[options.environment];
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.duplicateWindow = Math.min(28_800, Math.max(0, options.duplicateWindowSeconds ?? 600));
  }

  async chargeOpaqueData(request: OpaqueChargeRequest): Promise<ChargeResult> {
    const payment = opaquePayment(request.opaqueData);

    const transaction = this.transaction(request, (t) => {
      t.setPayment(payment);
      if (request.createProfile) {
        const profile = make('CustomerProfilePaymentType');
        profile.setCreateProfile(true);
        t.setProfile(profile);
      }
    });
    return this.run(transaction);
  }

  async chargeProfile(request: ProfileChargeRequest): Promise<ChargeResult> {
    const paymentProfile = make('PaymentProfile');
    paymentProfile.setPaymentProfileId(request.profile.paymentProfileId);
    const profile = make('CustomerProfilePaymentType');
    profile.setCustomerProfileId(request.profile.customerProfileId);
    profile.setPaymentProfile(paymentProfile);
    return this.run(this.transaction(request, (t) => t.setProfile(profile), false));
  }

  async storeCard(request: StoreCardRequest): Promise<StoreCardResult> {
    const payment = opaquePayment(request.opaqueData);
    // Schema order: customerType, billTo, payment (the no-argument constructor lays the keys out so).
    const paymentProfile = make('CustomerPaymentProfileType');
    paymentProfile.setBillTo(billingAddress(request.billTo));
    paymentProfile.setPayment(payment);
    // Schema order: merchantCustomerId, description, email, paymentProfiles.
    const profile = make('CustomerProfileType');
    profile.setMerchantCustomerId(request.customerId.slice(0, 20));
    if (request.description) profile.setDescription(request.description.slice(0, 255));
    profile.setEmail(request.email);
    profile.setPaymentProfiles([paymentProfile]);

    const create = make('CreateCustomerProfileRequest');
    create.setMerchantAuthentication(this.merchantAuthentication());
    create.setProfile(profile);
    // liveMode runs a zero-amount authorisation on the card; the sandbox only accepts testMode's checks.
    create.setValidationMode(this.environment === 'production' ? C().ValidationModeEnum.LIVEMODE : C().ValidationModeEnum.TESTMODE);

    const controller = new (controllers().CreateCustomerProfileController!)(create.getJSON(), sdkConfig(this.timeoutMs + 1_000));
    controller.setEnvironment(this.endpoint);
    const raw = await execute(controller, this.timeoutMs);
    if (raw.kind === 'failure') {
      return raw.sent ? failedStore('unknown', GATEWAY_MESSAGES.storeUnknown, raw.reason) : failedStore('error', GATEWAY_MESSAGES.unreachable, raw.reason);
    }
    return parseCreateProfileResponse(raw.body);
  }

  async findCharge(invoiceNumber: string): Promise<FoundCharge | null> {
    const wanted = invoiceNumber.slice(0, 20);
    const found = (await this.listTransactions('GetUnsettledTransactionList', () => {})).filter((t) => t.invoiceNumber === wanted);
    const unsettled = pickFoundCharge(found.map((t) => listedCharge(t, this.environment)).filter(isCharge));
    if (unsettled && isAcceptedCharge(unsettled.outcome)) return unsettled;

    const settled: FoundCharge[] = [];
    for (const batchId of await this.settledBatchIds()) {
      const list = await this.listTransactions('GetTransactionList', (request) => request.setBatchId(batchId));
      settled.push(...list.filter((t) => t.invoiceNumber === wanted).map((t) => listedCharge(t, this.environment)).filter(isCharge));
    }
    return pickFoundCharge([...(unsettled ? [unsettled] : []), ...settled]);
  }

  async settlementOf(transactionId: string): Promise<ChargeSettlement> {
    const request = make('GetTransactionDetailsRequest');
    request.setMerchantAuthentication(this.merchantAuthentication());
    request.setTransId(transactionId);
    const controller = new (controllers().GetTransactionDetailsController!)(request.getJSON(), sdkConfig(this.timeoutMs + 1_000));
    controller.setEnvironment(this.endpoint);
    const raw = await execute(controller, this.timeoutMs);
    if (raw.kind === 'failure') throw new Error(`Authorize.Net GetTransactionDetails: ${raw.reason}`);
    return parseTransactionDetails(raw.body);
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    // Schema order: cardNumber, expirationDate. A refund names the card by its last four digits only.
    const card = make('CreditCardType');
    card.setCardNumber(request.lastFour);
    card.setExpirationDate('XXXX');
    const payment = make('PaymentType');
    payment.setCreditCard(card);

    const t = make('TransactionRequestType');
    t.setTransactionType(C().TransactionTypeEnum.REFUNDTRANSACTION);
    t.setAmount(centsToDecimal(request.amount));
    t.setPayment(payment);
    t.setRefTransId(request.transactionId);
    const order = make('OrderType');
    order.setInvoiceNumber(request.invoiceNumber.slice(0, 20));
    t.setOrder(order);
    t.setTransactionSettings(this.duplicateWindowSetting());
    return this.runRefund(t);
  }

  async voidCharge(transactionId: string): Promise<RefundResult> {
    const t = make('TransactionRequestType');
    t.setTransactionType(C().TransactionTypeEnum.VOIDTRANSACTION);
    t.setRefTransId(transactionId);
    return this.runRefund(t);
  }

  async storedCardExpiry(profile: StoredPaymentProfile): Promise<CardExpiry | null> {
    // Schema order: merchantAuthentication, clientId, refId, customerProfileId, customerPaymentProfileId, unmaskExpirationDate.
    const request = make('GetCustomerPaymentProfileRequest');
    request.setMerchantAuthentication(this.merchantAuthentication());
    request.setCustomerProfileId(profile.customerProfileId);
    request.setCustomerPaymentProfileId(profile.paymentProfileId);
    request.setUnmaskExpirationDate(true);
    const controller = new (controllers().GetCustomerPaymentProfileController!)(request.getJSON(), sdkConfig(this.timeoutMs + 1_000));
    controller.setEnvironment(this.endpoint);
    const raw = await execute(controller, this.timeoutMs);
    if (raw.kind === 'failure') throw new Error(`Authorize.Net GetCustomerPaymentProfile: ${raw.reason}`);
    return parsePaymentProfileExpiry(raw.body);
  }

  private async runRefund(transaction: SdkObject): Promise<RefundResult> {
    const raw = await this.createTransaction(transaction);
    if (raw.kind === 'failure') {
      return raw.sent
        ? failedRefund(this.environment, 'unknown', REFUND_GATEWAY_MESSAGES.unknown, raw.reason)
        : failedRefund(this.environment, 'error', REFUND_GATEWAY_MESSAGES.unreachable, raw.reason);
    }
    return parseRefundResponse(raw.body, this.environment);
  }

  /** Every page of a transaction list, newest first (sorted by submitTimeUTC, descending). */
  private async listTransactions(name: 'GetUnsettledTransactionList' | 'GetTransactionList', fill: (request: SdkObject) => void): Promise<RawSummary[]> {
    const all: RawSummary[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const request = make(`${name}Request`);
      request.setMerchantAuthentication(this.merchantAuthentication());
      fill(request);
      const sorting = make('TransactionListSorting');
      sorting.setOrderBy('submitTimeUTC');
      sorting.setOrderDescending(true);
      request.setSorting(sorting);
      // Authorize.Net's paging offset is the page number, from 1.
      const paging = make('Paging');
      paging.setLimit(REPORT_PAGE);
      paging.setOffset(page);
      request.setPaging(paging);
      const body = (await this.report(name, request)) as { transactions?: RawSummary[] };
      const transactions = Array.isArray(body.transactions) ? body.transactions : [];
      all.push(...transactions);
      if (transactions.length < REPORT_PAGE) return all;
    }
    throw new Error(`Authorize.Net ${name}: more than ${MAX_PAGES} pages`);
  }

  private async settledBatchIds(): Promise<string[]> {
    const request = make('GetSettledBatchListRequest');
    request.setMerchantAuthentication(this.merchantAuthentication());
    const now = Date.now();
    request.setFirstSettlementDate(utcDateTime(now - SETTLED_LOOKBACK_MS));
    request.setLastSettlementDate(utcDateTime(now));
    const body = (await this.report('GetSettledBatchList', request)) as { batchList?: Array<{ batchId?: string }> };
    return (Array.isArray(body.batchList) ? body.batchList : []).map((b) => String(b.batchId ?? '')).filter(Boolean);
  }

  /** One reporting call: its body when the gateway answered Ok (no records is Ok too); throws otherwise. */
  private async report(name: string, request: SdkObject): Promise<Record<string, unknown>> {
    const controller = new (controllers()[`${name}Controller`]!)(request.getJSON(), sdkConfig(this.timeoutMs + 1_000));
    controller.setEnvironment(this.endpoint);
    const raw = await execute(controller, this.timeoutMs);
    if (raw.kind === 'failure') throw new Error(`Authorize.Net ${name}: ${raw.reason}`);
    const body = (raw.body && typeof raw.body === 'object' ? raw.body : {}) as RawResponse & Record<string, unknown>;
    if (body.messages?.resultCode !== 'Ok') {
      const top = body.messages?.message?.[0];
      throw new Error(`Authorize.Net ${name}: ${top?.code ?? 'no answer'} ${top?.text ?? ''}`.trim());
    }
    return body;
  }

  private merchantAuthentication(): SdkObject {
    const auth = make('MerchantAuthenticationType');
    auth.setName(this.options.apiLoginId);
    auth.setTransactionKey(this.options.transactionKey);
    return auth;
  }

  /** A createTransactionRequest's transactionRequest, in schema order: type, amount, payment/profile, order, customer, billTo, settings. */
  private transaction(request: ChargeCommon & { customerId?: string }, setPayment: (t: SdkObject) => void, withBillTo = true): SdkObject {
    const t = make('TransactionRequestType');
    t.setTransactionType(C().TransactionTypeEnum.AUTHCAPTURETRANSACTION);
    t.setAmount(centsToDecimal(request.amount));
    setPayment(t);

    const order = make('OrderType');
    order.setInvoiceNumber(request.invoiceNumber.slice(0, 20));
    if (request.description) order.setDescription(request.description.slice(0, 255));
    t.setOrder(order);

    const customer = make('CustomerDataType');
    if (request.customerId) customer.setId(request.customerId.slice(0, 20));
    customer.setEmail(request.email);
    t.setCustomer(customer);

    if (withBillTo) t.setBillTo(billingAddress(request.billTo));

    t.setTransactionSettings(this.duplicateWindowSetting());
    return t;
  }

  private duplicateWindowSetting(): SdkObject {
    const setting = make('SettingType');
    setting.setSettingName('duplicateWindow');
    setting.setSettingValue(String(this.duplicateWindow));
    const settings = make('ArrayOfSetting');
    settings.setSetting([setting]);
    return settings;
  }

  /** One createTransactionRequest (a charge, refund or void) sent and answered, or why not. */
  private createTransaction(transaction: SdkObject) {
    const request = make('CreateTransactionRequest');
    request.setMerchantAuthentication(this.merchantAuthentication());
    request.setTransactionRequest(transaction);
    const controller = new (controllers().CreateTransactionController!)(request.getJSON(), sdkConfig(this.timeoutMs + 1_000));
    controller.setEnvironment(this.endpoint);
    return execute(controller, this.timeoutMs);
  }

  private async run(transaction: SdkObject): Promise<ChargeResult> {
    const raw = await this.createTransaction(transaction);
    if (raw.kind === 'failure') {
      return raw.sent
        ? failedCharge(this.environment, 'unknown', GATEWAY_MESSAGES.unknown, raw.reason)
        : failedCharge(this.environment, 'error', GATEWAY_MESSAGES.unreachable, raw.reason);
    }
    return parseTransactionResponse(raw.body, this.environment);
  }
}

/** A billTo (CustomerAddressType) cut to the schema's lengths. */
function billingAddress(details: BillingDetails): SdkObject {
  const billTo = make('CustomerAddressType');
  billTo.setFirstName(details.firstName.slice(0, 50));
  billTo.setLastName(details.lastName.slice(0, 50));
  billTo.setAddress(details.address.slice(0, 60));
  billTo.setCity(details.city.slice(0, 40));
  billTo.setState(details.state.slice(0, 40));
  billTo.setZip(details.zip.slice(0, 20));
  billTo.setCountry('US');
  return billTo;
}

/** One SDK call as a promise that always settles: the callback, an error seen by polling, or our timeout. */
function execute(controller: SdkController, timeoutMs: number): Promise<RawCall> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: RawCall) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(result);
    };
    const poll = setInterval(() => {
      const error = controller.getError() as { code?: string; message?: string; response?: { status?: number } } | null;
      if (!error) return;
      const code = error.code ?? '';
      const reason = error.response?.status ? `HTTP ${error.response.status}` : code || error.message || 'network error';
      finish({ kind: 'failure', sent: !NOT_SENT.has(code), reason });
    }, 20);
    const timer = setTimeout(() => finish({ kind: 'failure', sent: true, reason: 'timeout' }), timeoutMs);
    try {
      controller.execute(() => finish({ kind: 'response', body: controller.getResponse() }));
    } catch (error) {
      finish({ kind: 'failure', sent: false, reason: error instanceof Error ? error.message : 'SDK error' });
    }
  });
}

interface RawResponse {
  messages?: { resultCode?: string; message?: Array<{ code?: string; text?: string }> };
  transactionResponse?: {
    responseCode?: string;
    transId?: string;
    accountNumber?: string;
    accountType?: string;
    messages?: Array<{ code?: string; description?: string }>;
    errors?: Array<{ errorCode?: string; errorText?: string }>;
  };
  profileResponse?: { customerProfileId?: string; customerPaymentProfileIdList?: string[] };
}

const OUTCOMES: Record<string, ChargeOutcome> = { '1': 'approved', '2': 'declined', '3': 'error', '4': 'held' };

/** Turns the gateway's JSON into a ChargeResult. Lenient: any shape it does not know is an error. */
export function parseTransactionResponse(body: unknown, environment: PaymentEnvironment): ChargeResult {
  const response = (body && typeof body === 'object' ? body : {}) as RawResponse;
  const top = response.messages?.message?.[0];
  const tr = response.transactionResponse;
  const code = tr?.responseCode ? String(tr.responseCode) : null;
  if (!tr || !code || !OUTCOMES[code]) {
    const errorCode = top?.code ?? null;
    const message = errorCode === 'E00007' ? GATEWAY_MESSAGES.badCredentials : top?.text || 'The payment service refused the request.';
    return { ...failedCharge(environment, 'error', message, errorCode) };
  }
  const outcome = OUTCOMES[code];
  const firstError = tr.errors?.[0];
  const errorCode = firstError?.errorCode ? String(firstError.errorCode) : null;
  const approvedText = tr.messages?.[0]?.description;
  const message =
    isAcceptedCharge(outcome)
      ? approvedText || (outcome === 'held' ? GATEWAY_MESSAGES.held : GATEWAY_MESSAGES.approved)
      : firstError?.errorText || top?.text || (outcome === 'declined' ? GATEWAY_MESSAGES.declined : 'The payment could not be processed.');
  const transId = tr.transId && tr.transId !== '0' ? String(tr.transId) : null;
  const account = tr.accountNumber ? String(tr.accountNumber).replace(/\D/g, '').slice(-4) : '';
  const profileId = response.profileResponse?.customerProfileId;
  const paymentProfileId = response.profileResponse?.customerPaymentProfileIdList?.[0];
  return {
    outcome,
    responseCode: code,
    message,
    errorCode: isAcceptedCharge(outcome) ? null : errorCode,
    transactionId: transId,
    cardType: tr.accountType ? String(tr.accountType) : null,
    lastFour: account.length === 4 ? account : null,
    duplicate: outcome === 'error' && errorCode === '11',
    profile: profileId && paymentProfileId ? { customerProfileId: String(profileId), paymentProfileId: String(paymentProfileId) } : null,
    environment,
  };
}

/** A refund's or void's answer: approved (1), declined (2), anything else refused; 11 and 310 say it was made before. */
export function parseRefundResponse(body: unknown, environment: PaymentEnvironment): RefundResult {
  const charge = parseTransactionResponse(body, environment);
  // A refund or void held for review (4) has not given anything back yet: not known.
  const outcome: RefundOutcome = charge.outcome === 'held' ? 'unknown' : charge.outcome;
  const duplicate = outcome === 'error' && (charge.errorCode === '11' || charge.errorCode === '310');
  return {
    outcome,
    responseCode: charge.responseCode,
    message: outcome === 'approved' ? charge.message || REFUND_GATEWAY_MESSAGES.approved : charge.message,
    errorCode: charge.errorCode,
    transactionId: charge.transactionId,
    duplicate,
    environment,
  };
}

/** Reporting statuses of a charge as what can be given back: a void before settlement, a refund after. */
const SETTLEMENT_STATES: Record<string, SettlementState> = {
  capturedPendingSettlement: 'unsettled',
  authorizedPendingCapture: 'unsettled',
  settledSuccessfully: 'settled',
};

interface RawDetailsResponse {
  messages?: { resultCode?: string; message?: Array<{ code?: string; text?: string }> };
  transaction?: {
    transactionStatus?: string;
    settleAmount?: number | string;
    authAmount?: number | string;
    payment?: { creditCard?: { cardNumber?: string } };
  };
}

/** A getTransactionDetailsResponse as a ChargeSettlement; E00040 (no such transaction) is not-found; any other refusal throws. */
export function parseTransactionDetails(body: unknown): ChargeSettlement {
  const response = (body && typeof body === 'object' ? body : {}) as RawDetailsResponse;
  const top = response.messages?.message?.[0];
  if (response.messages?.resultCode !== 'Ok' || !response.transaction) {
    if (top?.code === 'E00040') return { state: 'not-found', status: 'notFound', amount: null, lastFour: null };
    throw new Error(`Authorize.Net GetTransactionDetails: ${top?.code ?? 'no answer'} ${top?.text ?? ''}`.trim());
  }
  const t = response.transaction;
  const status = String(t.transactionStatus ?? '');
  const account = String(t.payment?.creditCard?.cardNumber ?? '').replace(/\D/g, '').slice(-4);
  return {
    state: SETTLEMENT_STATES[status] ?? 'closed',
    status,
    amount: parseCents(t.settleAmount) ?? parseCents(t.authAmount),
    lastFour: account.length === 4 ? account : null,
  };
}

interface RawPaymentProfileResponse {
  messages?: { resultCode?: string; message?: Array<{ code?: string; text?: string }> };
  paymentProfile?: { payment?: { creditCard?: { cardNumber?: string; expirationDate?: string } } };
}

/**
 * A getCustomerPaymentProfileResponse's card expiry: null when there is no such profile (E00040), no card
 * in it or no unmasked "YYYY-MM"; any other refusal (E00007, …) throws, since the provider was not asked.
 */
export function parsePaymentProfileExpiry(body: unknown): CardExpiry | null {
  const response = (body && typeof body === 'object' ? body : {}) as RawPaymentProfileResponse;
  const top = response.messages?.message?.[0];
  if (response.messages?.resultCode !== 'Ok') {
    if (top?.code === 'E00040') return null;
    throw new Error(`Authorize.Net GetCustomerPaymentProfile: ${top?.code ?? 'no answer'} ${top?.text ?? ''}`.trim());
  }
  return parseExpirationDate(response.paymentProfile?.payment?.creditCard?.expirationDate);
}

interface RawProfileResponse {
  messages?: { resultCode?: string; message?: Array<{ code?: string; text?: string }> };
  customerProfileId?: string;
  customerPaymentProfileIdList?: string[];
  /** The validation's transaction, as a delimited "direct response" string per payment profile. */
  validationDirectResponseList?: string[];
}

/** Turns a createCustomerProfileResponse into a StoreCardResult. Lenient: any shape it does not know is an error. */
export function parseCreateProfileResponse(body: unknown): StoreCardResult {
  const response = (body && typeof body === 'object' ? body : {}) as RawProfileResponse;
  const top = response.messages?.message?.[0];
  const card = directResponseCard(response.validationDirectResponseList?.[0]);
  const errorCode = top?.code ? String(top.code) : null;
  if (response.messages?.resultCode === 'Ok') {
    const customerProfileId = response.customerProfileId;
    const paymentProfileId = Array.isArray(response.customerPaymentProfileIdList) ? response.customerPaymentProfileIdList[0] : undefined;
    if (!customerProfileId || !paymentProfileId) return failedStore('error', 'The payment service did not return the stored card.', errorCode);
    return {
      outcome: 'stored',
      profile: { customerProfileId: String(customerProfileId), paymentProfileId: String(paymentProfileId) },
      message: top?.text || 'Successful.',
      errorCode: null,
      ...card,
    };
  }
  if (errorCode === 'E00007') return failedStore('error', GATEWAY_MESSAGES.badCredentials, errorCode);
  // The card's validation was refused; the text is the validation's ("This transaction has been declined.").
  if (errorCode === 'E00027') return { ...failedStore('declined', top?.text || GATEWAY_MESSAGES.declined, errorCode), ...card };
  return failedStore('error', top?.text || 'The payment service refused the request.', errorCode);
}

/**
 * Card type and last four from a validation's direct response (fields 51 and 52: "XXXX1111", "Visa").
 * Found by shape rather than position, since an address holding the delimiter shifts the fields; the
 * delimiter is the character after the one-digit response code.
 */
function directResponseCard(direct: unknown): { cardType: string | null; lastFour: string | null } {
  const none = { cardType: null, lastFour: null };
  if (typeof direct !== 'string' || direct.length < 2) return none;
  const fields = direct.split(direct[1]!);
  const at = fields.findIndex((f) => /^X+\d{4}$/.test(f));
  if (at < 0) return none;
  return { lastFour: fields[at]!.slice(-4), cardType: fields[at + 1] || null };
}

/** A transaction summary of the Transaction Reporting lists. */
interface RawSummary {
  transId?: string;
  submitTimeUTC?: string;
  transactionStatus?: string;
  invoiceNumber?: string;
  accountType?: string;
  accountNumber?: string;
  settleAmount?: number | string;
}

/**
 * Reporting statuses as outcomes; any other status (voided, expired, generalError, …) took no money:
 * error. couldNotVoid is a charge whose void failed, so the money was taken: approved.
 */
const LISTED_OUTCOMES: Record<string, ChargeOutcome> = {
  capturedPendingSettlement: 'approved',
  authorizedPendingCapture: 'approved',
  settledSuccessfully: 'approved',
  couldNotVoid: 'approved',
  FDSPendingReview: 'held',
  FDSAuthorizedPendingReview: 'held',
  declined: 'declined',
};
const LISTED_CODES: Record<ChargeOutcome, string> = { approved: '1', declined: '2', error: '3', held: '4', unknown: '3' };

/** Refunds (refundPendingSettlement, refundSettledSuccessfully) are not charges: they never answer findCharge. */
const isCharge = (c: FoundCharge | null): c is FoundCharge => c !== null;

/** A listed transaction as a FoundCharge, or null for a refund. */
function listedCharge(t: RawSummary, environment: PaymentEnvironment): FoundCharge | null {
  const status = String(t.transactionStatus ?? '');
  if (status.startsWith('refund')) return null;
  const outcome = LISTED_OUTCOMES[status] ?? 'error';
  const account = t.accountNumber ? String(t.accountNumber).replace(/\D/g, '').slice(-4) : '';
  const message =
    outcome === 'approved' ? GATEWAY_MESSAGES.approved
    : outcome === 'held' ? GATEWAY_MESSAGES.held
    : outcome === 'declined' ? GATEWAY_MESSAGES.declined
    : `The payment service lists this charge as ${status || 'unknown'}.`;
  return {
    outcome,
    responseCode: LISTED_CODES[outcome],
    message,
    errorCode: outcome === 'declined' ? '2' : outcome === 'error' ? status || null : null,
    transactionId: t.transId ? String(t.transId) : null,
    cardType: t.accountType ? String(t.accountType) : null,
    lastFour: account.length === 4 ? account : null,
    duplicate: false,
    profile: null,
    environment,
    amount: parseCents(t.settleAmount),
  };
}

/** xs:dateTime in UTC without milliseconds, as the reporting API's samples send it. */
const utcDateTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
