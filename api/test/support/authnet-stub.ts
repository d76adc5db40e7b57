/**
 * A local server speaking Authorize.Net's JSON API, for the adapter's tests: createTransactionRequest,
 * createCustomerProfileRequest (storing a card: billing ZIP 46282 fails its validation, E00027; a
 * merchant customer id used before is refused, E00039) and, from the transactions it made, the
 * Transaction Reporting calls findCharge uses
 * (getUnsettledTransactionListRequest, getSettledBatchListRequest, getTransactionListRequest; sorted
 * and paged like the real ones, the offset being the page number from 1). Like the real gateway it
 * answers with a UTF-8 byte-order mark, checks element order (E00003) and credentials (E00007), and
 * honours the duplicate window (error 11). A scenario picks a charge's outcome; `timeout`, `drop` and
 * `http-500` also apply to the reporting calls.
 *
 * Refunds and voids: createTransactionRequest's refundTransaction (refTransId, the card's last four
 * digits with expiration XXXX) gives back part of a settled charge: an unsettled one is error 54, more
 * than the charge captured in all 55, a card that is not the charge's or an unknown refTransId 16, a
 * repeat of the same invoice number and amount inside the duplicate window 11. voidTransaction cancels
 * an unsettled charge (status voided): a second void is 310 "already voided", a settled or unknown
 * charge 16 (the stub's choice for a settled one: the adapter treats any refusal alike).
 * getTransactionDetailsRequest answers a transaction's status, amount and masked card, or E00040.
 * The scenarios `decline` and `error` refuse a refund or void (responseCode 2 or 3) and
 * `charge-then-timeout` makes it and never answers; `settle()` settles refunds too
 * (refundPendingSettlement → refundSettledSuccessfully).
 *
 * Stored cards' expiry: getCustomerPaymentProfileRequest answers a payment profile the stub stored (by
 * createCustomerProfileRequest, or by a charge with createProfile) with its card, the expiry "YYYY-MM"
 * when unmaskExpirationDate is true and "XXXX" otherwise, as the real gateway does; an unknown profile is
 * E00040. Accept.js data is opaque, so the stub cannot read the card's expiry: each card it stores gets
 * `cardExpiry` as it is at that moment (a test sets it first).
 *
 * For benchmarks (workers/bench/renewals.ts): `latencyMs` answers every request that long after it
 * arrived (the gateway's round trip), `keepBodies: false` records each request without its body (a
 * long run keeps name and invoice number only), and `maxInFlight` is the most requests it held at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type StubScenario =
  | 'approve'
  | 'decline'
  | 'error'
  | 'held'
  | 'timeout'
  | 'drop'
  /** Charges (remembered for the duplicate window) but never answers: an unknown outcome. */
  | 'charge-then-timeout'
  /** Answers HTTP 500 with no body. */
  | 'http-500';

export interface StubRequest {
  name: string;
  body: Record<string, unknown>;
  topLevelKeys: string[];
  transactionKeys: string[];
  invoiceNumber: string | undefined;
  duplicateWindow: string | undefined;
}

/** A transaction as the reporting lists show it. */
export interface StubTransaction {
  transId: string;
  invoiceNumber: string;
  /** Decimal dollars, as sent. */
  amount: string;
  /** capturedPendingSettlement, FDSPendingReview, declined, voided, settledSuccessfully, refundPendingSettlement, … */
  transactionStatus: string;
  submitTimeUTC: string;
  /** Null while unsettled. */
  batchId: string | null;
  /** A refund's charge. */
  refTransId?: string;
}

/** A customer profile with its one payment profile, as stored by createCustomerProfileRequest. */
export interface StubProfile {
  customerProfileId: string;
  paymentProfileId: string;
  merchantCustomerId: string;
  email: string | undefined;
  validationMode: string | undefined;
  /** The card's expiry, "YYYY-MM" (the stub's `cardExpiry` when it was stored). */
  expirationDate: string;
}

export interface AuthnetStubOptions {
  /** Every answer this long after its request arrived (default 0). */
  latencyMs?: number;
  /** Keep each request's body and keys in `requests` (default true; a benchmark keeps name and invoice number only). */
  keepBodies?: boolean;
}

export interface AuthnetStub {
  url: string;
  /** The most requests the stub was working on at once (their answers held for `latencyMs`). */
  maxInFlight: number;
  scenario: StubScenario;
  requests: StubRequest[];
  /** Transactions the stub approved (what a merchant would see settled). */
  charges: Array<{ transId: string; invoiceNumber: string; amount: string }>;
  /** Every transaction the stub made (approved, held, declined), for the reporting calls; tests may add their own. */
  transactions: StubTransaction[];
  /** Customer profiles the stub stored (createCustomerProfileRequest). */
  profiles: StubProfile[];
  /** The expiry ("YYYY-MM") given to each card stored from now on (default: December, three years ahead). */
  cardExpiry: string;
  /** Settles every unsettled transaction into a new batch (the daily cut-off): captured ones become settledSuccessfully. */
  settle: () => string;
  /** The API settings that point its Authorize.Net gateway at this stub with its credentials (`overrides` on top). */
  apiEnv: (overrides?: Record<string, string>) => Record<string, string>;
  close: () => Promise<void>;
}

const TOP_ORDER = ['merchantAuthentication', 'clientId', 'refId', 'transactionRequest'];
const TRANSACTION_ORDER = [
  'transactionType', 'amount', 'currencyCode', 'payment', 'profile', 'solution', 'callId', 'terminalNumber', 'authCode', 'refTransId',
  'splitTenderId', 'order', 'lineItems', 'tax', 'duty', 'shipping', 'taxExempt', 'poNumber', 'customer', 'billTo', 'shipTo', 'customerIP',
  'cardholderAuthentication', 'retail', 'employeeId', 'transactionSettings', 'userFields', 'surcharge', 'merchantDescriptor', 'subMerchant',
  'tip', 'processingOptions', 'subsequentAuthInformation', 'otherTax', 'shipFrom', 'authorizationIndicatorType',
];

/** Top-level elements of each supported request, in schema order. */
const REQUEST_ORDER: Record<string, string[]> = {
  createTransactionRequest: TOP_ORDER,
  getUnsettledTransactionListRequest: ['merchantAuthentication', 'clientId', 'refId', 'status', 'sorting', 'paging'],
  getTransactionListRequest: ['merchantAuthentication', 'clientId', 'refId', 'batchId', 'sorting', 'paging'],
  getSettledBatchListRequest: ['merchantAuthentication', 'clientId', 'refId', 'includeStatistics', 'firstSettlementDate', 'lastSettlementDate'],
  createCustomerProfileRequest: ['merchantAuthentication', 'clientId', 'refId', 'profile', 'validationMode'],
  getTransactionDetailsRequest: ['merchantAuthentication', 'clientId', 'refId', 'transId'],
  getCustomerPaymentProfileRequest: ['merchantAuthentication', 'clientId', 'refId', 'customerProfileId', 'customerPaymentProfileId', 'unmaskExpirationDate', 'includeIssuerInfo'],
};
/** A transaction's payment (PaymentType) and its credit card (CreditCardType). */
const PAYMENT_ORDER = ['creditCard', 'bankAccount', 'trackData', 'encryptedTrackData', 'payPal', 'opaqueData', 'emv', 'dataSource'];
const CREDIT_CARD_ORDER = ['cardNumber', 'expirationDate', 'cardCode', 'isPaymentToken', 'cryptogram', 'tokenRequestorName', 'tokenRequestorId', 'tokenRequestorEci'];
/** createCustomerProfileRequest's profile (CustomerProfileType) and each of its paymentProfiles (CustomerPaymentProfileType). */
const PROFILE_ORDER = ['merchantCustomerId', 'description', 'email', 'paymentProfiles', 'shipToList', 'profileType'];
const PAYMENT_PROFILE_ORDER = ['customerType', 'billTo', 'payment', 'driversLicense', 'taxId', 'defaultPaymentProfile', 'subsequentAuthInformation', 'excludeFromAccountUpdater'];
const ADDRESS_ORDER = ['firstName', 'lastName', 'company', 'address', 'city', 'state', 'zip', 'country', 'phoneNumber', 'faxNumber', 'email'];

/** True when `keys` appear in the schema's order (the gateway rejects anything else). */
const inSchemaOrder = (keys: string[], order: string[]) => {
  let last = -1;
  for (const key of keys) {
    const at = order.indexOf(key);
    if (at < last) return false;
    last = at;
  }
  return true;
};

/** A createCustomerProfileRequest's profile, its payment profiles and their billTo in schema order (true when absent). */
const profileInSchemaOrder = (profile: unknown): boolean => {
  if (!profile || typeof profile !== 'object') return true;
  const p = profile as Record<string, unknown>;
  const paymentProfiles = Array.isArray(p.paymentProfiles) ? (p.paymentProfiles as Array<Record<string, unknown>>) : [];
  return (
    inSchemaOrder(Object.keys(p), PROFILE_ORDER) &&
    paymentProfiles.every((pp) => inSchemaOrder(Object.keys(pp), PAYMENT_PROFILE_ORDER) && inSchemaOrder(Object.keys((pp.billTo ?? {})), ADDRESS_ORDER))
  );
};

const BOM = '\uFEFF';

/** The payment profile every approved charge with createProfile answers (the stub's one). */
const CHARGE_PROFILE = { customerProfileId: '900001', paymentProfileId: '800001' } as const;

export async function startAuthnetStub(credentials: { apiLoginId: string; transactionKey: string }, options: AuthnetStubOptions = {}): Promise<AuthnetStub> {
  const { latencyMs = 0, keepBodies = true } = options;
  let inFlight = 0;
  const sockets = new Set<Socket>();
  const duplicates = new Map<string, number>();
  let nextTransId = 60_000_000_001;

  let nextBatchId = 7_000_001;
  let nextProfileId = 910_000_001;
  const batches: Array<{ batchId: string; settlementTimeUTC: string }> = [];
  /** Every stored payment profile's card expiry, by `<customer profile id>/<payment profile id>` (the charge-made profile too). */
  const expirations = new Map<string, string>();

  const stub: AuthnetStub = {
    url: '',
    maxInFlight: 0,
    scenario: 'approve',
    requests: [],
    charges: [],
    transactions: [],
    profiles: [],
    cardExpiry: `${new Date().getUTCFullYear() + 3}-12`,
    settle: () => {
      const batchId = String(nextBatchId++);
      batches.push({ batchId, settlementTimeUTC: new Date().toISOString() });
      for (const t of stub.transactions.filter((x) => x.batchId === null)) {
        t.batchId = batchId;
        if (t.transactionStatus === 'capturedPendingSettlement') t.transactionStatus = 'settledSuccessfully';
        if (t.transactionStatus === 'refundPendingSettlement') t.transactionStatus = 'refundSettledSuccessfully';
      }
      return batchId;
    },
    apiEnv: (overrides = {}) => ({
      AUTHNET_API_LOGIN_ID: credentials.apiLoginId,
      AUTHNET_TRANSACTION_KEY: credentials.transactionKey,
      AUTHNET_PUBLIC_CLIENT_KEY: 'stub-public-key',
      AUTHNET_ENDPOINT: stub.url,
      ...overrides,
    }),
    close: async () => {},
  };

  const send = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(BOM + JSON.stringify(body));
  };
  const topError = (code: string, text: string) => ({ messages: { resultCode: 'Error', message: [{ code, text }] } });

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    let parsed: Record<string, Record<string, unknown>>;
    try {
      parsed = JSON.parse(raw.replace(/^\uFEFF/, '')) as Record<string, Record<string, unknown>>;
    } catch {
      return send(res, topError('E00002', 'The content-type specified is not supported.'));
    }
    const name = Object.keys(parsed)[0] ?? '';
    const body = parsed[name] ?? {};
    const transaction = (body.transactionRequest ?? {}) as Record<string, unknown>;
    const order = (transaction.order ?? {}) as { invoiceNumber?: string };
    const settings = ((transaction.transactionSettings ?? {}) as { setting?: Array<{ settingName?: string; settingValue?: string }> }).setting ?? [];
    const duplicateWindow = settings.find((s) => s.settingName === 'duplicateWindow')?.settingValue;
    stub.requests.push({
      name,
      body: keepBodies ? body : {},
      topLevelKeys: keepBodies ? Object.keys(body) : [],
      transactionKeys: keepBodies ? Object.keys(transaction) : [],
      invoiceNumber: order.invoiceNumber,
      duplicateWindow,
    });

    const expected = REQUEST_ORDER[name];
    if (!expected) return send(res, topError('E00003', `The element '${name}' is not supported by this stub.`));
    const payment = (transaction.payment ?? {}) as Record<string, unknown>;
    const paymentInOrder = inSchemaOrder(Object.keys(payment), PAYMENT_ORDER) && inSchemaOrder(Object.keys(payment.creditCard ?? {}), CREDIT_CARD_ORDER);
    if (!inSchemaOrder(Object.keys(body), expected) || !inSchemaOrder(Object.keys(transaction), TRANSACTION_ORDER) || !paymentInOrder || !profileInSchemaOrder(body.profile)) {
      return send(res, topError('E00003', `The element '${name}' in namespace 'AnetApi/xml/v1/schema/AnetApiSchema.xsd' has invalid child element.`));
    }
    const auth = (body.merchantAuthentication ?? {}) as { name?: string; transactionKey?: string };
    if (auth.name !== credentials.apiLoginId || auth.transactionKey !== credentials.transactionKey) {
      return send(res, topError('E00007', 'User authentication failed due to invalid authentication values.'));
    }

    if (stub.scenario === 'drop') {
      req.socket.destroy();
      return;
    }
    if (stub.scenario === 'timeout') return; // never answers
    if (stub.scenario === 'http-500') {
      res.writeHead(500);
      res.end();
      return;
    }

    if (name === 'createCustomerProfileRequest') return send(res, createProfile(body));
    if (name === 'getTransactionDetailsRequest') return send(res, details(String(body.transId ?? '')));
    if (name === 'getCustomerPaymentProfileRequest') return send(res, paymentProfile(body));
    if (name !== 'createTransactionRequest') return send(res, report(name, body));
    if (transaction.transactionType === 'refundTransaction' || transaction.transactionType === 'voidTransaction') {
      const answer = giveBack(transaction, order.invoiceNumber, duplicateWindow);
      if (stub.scenario === 'charge-then-timeout') return;
      return send(res, answer);
    }

    const amount = String(transaction.amount ?? '');
    const fingerprint = `${order.invoiceNumber}:${amount}`;
    const window = Number(duplicateWindow ?? 120) * 1000;
    const seen = duplicates.get(fingerprint);
    const common = { accountNumber: 'XXXX1111', accountType: 'Visa', refTransID: '', transHash: '', testRequest: '0' };
    if (seen !== undefined && Date.now() - seen < window) {
      return send(res, {
        transactionResponse: { responseCode: '3', transId: '0', ...common, errors: [{ errorCode: '11', errorText: 'A duplicate transaction has been submitted.' }] },
        messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
      });
    }

    const transId = String(nextTransId++);
    const approved = stub.scenario === 'approve' || stub.scenario === 'held' || stub.scenario === 'charge-then-timeout';
    if (approved) {
      duplicates.set(fingerprint, Date.now());
      stub.charges.push({ transId, invoiceNumber: order.invoiceNumber ?? '', amount });
    }
    // What the reporting lists will show (an error refusal has no transaction).
    const listed = stub.scenario === 'held' ? 'FDSPendingReview' : stub.scenario === 'decline' ? 'declined' : approved ? 'capturedPendingSettlement' : null;
    if (listed) {
      stub.transactions.push({ transId, invoiceNumber: order.invoiceNumber ?? '', amount, transactionStatus: listed, submitTimeUTC: new Date().toISOString(), batchId: null });
    }
    if (stub.scenario === 'charge-then-timeout') return;

    const profile = (transaction.profile ?? {}) as { createProfile?: boolean };
    if (stub.scenario === 'approve' && profile.createProfile) expirations.set(`${CHARGE_PROFILE.customerProfileId}/${CHARGE_PROFILE.paymentProfileId}`, stub.cardExpiry);
    switch (stub.scenario) {
      case 'approve':
        return send(res, {
          transactionResponse: { responseCode: '1', authCode: 'ABC123', avsResultCode: 'Y', cvvResultCode: 'P', transId, ...common, messages: [{ code: '1', description: 'This transaction has been approved.' }] },
          ...(profile.createProfile
            ? { profileResponse: { messages: { resultCode: 'Ok', message: [] }, customerProfileId: CHARGE_PROFILE.customerProfileId, customerPaymentProfileIdList: [CHARGE_PROFILE.paymentProfileId] } }
            : {}),
          messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
        });
      case 'held':
        return send(res, {
          transactionResponse: { responseCode: '4', transId, ...common, messages: [{ code: '252', description: 'Your order has been received. Thank you for your business!' }] },
          messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
        });
      case 'decline':
        return send(res, {
          transactionResponse: { responseCode: '2', transId, ...common, errors: [{ errorCode: '2', errorText: 'This transaction has been declined.' }] },
          messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
        });
      default:
        return send(res, {
          transactionResponse: { responseCode: '3', transId: '0', ...common, errors: [{ errorCode: '6', errorText: 'The credit card number is invalid.' }] },
          messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
        });
    }
  };

  const ok = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };

  /**
   * createCustomerProfileRequest: the validation's direct response (fields 51 and 52 are the masked
   * card and its type), then the profile's ids, or E00027 with the validation's text when it failed
   * (billing ZIP 46282, or the `decline` scenario), or E00039 for a merchant customer id used before.
   */
  function createProfile(body: Record<string, unknown>): unknown {
    const profile = (body.profile ?? {}) as { merchantCustomerId?: string; email?: string; paymentProfiles?: Array<{ billTo?: { firstName?: string; lastName?: string; zip?: string } }> };
    const merchantCustomerId = String(profile.merchantCustomerId ?? '');
    const existing = stub.profiles.find((p) => p.merchantCustomerId === merchantCustomerId);
    if (existing) return topError('E00039', `A duplicate record with ID ${existing.customerProfileId} already exists.`);
    const billTo = profile.paymentProfiles?.[0]?.billTo ?? {};
    const declined = stub.scenario === 'decline' || billTo.zip === '46282';
    const direct = (code: string, reason: string, text: string) => {
      const fields = Array.from({ length: 68 }, () => '');
      Object.assign(fields, { 0: code, 1: '1', 2: reason, 3: text, 4: declined ? '' : 'A1B2C3', 5: 'Y', 6: '0', 8: 'Test transaction for ValidateCustomerPaymentProfile.', 9: '0.00', 10: 'CC', 11: 'auth_only', 12: merchantCustomerId, 13: billTo.firstName ?? '', 14: billTo.lastName ?? '', 19: billTo.zip ?? '', 50: 'XXXX1111', 51: 'Visa' });
      return fields.join(',');
    };
    if (declined) {
      return {
        customerPaymentProfileIdList: [],
        customerShippingAddressIdList: [],
        validationDirectResponseList: [direct('2', '2', 'This transaction has been declined.')],
        messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'This transaction has been declined.' }] },
      };
    }
    const stored: StubProfile = {
      customerProfileId: String(nextProfileId++),
      paymentProfileId: String(nextProfileId++),
      merchantCustomerId,
      email: profile.email,
      validationMode: typeof body.validationMode === 'string' ? body.validationMode : undefined,
      expirationDate: stub.cardExpiry,
    };
    stub.profiles.push(stored);
    expirations.set(`${stored.customerProfileId}/${stored.paymentProfileId}`, stored.expirationDate);
    return {
      customerProfileId: stored.customerProfileId,
      customerPaymentProfileIdList: [stored.paymentProfileId],
      customerShippingAddressIdList: [],
      validationDirectResponseList: [direct('1', '1', 'This transaction has been approved.')],
      messages: ok,
    };
  }
  const noRecords = { messages: { resultCode: 'Ok', message: [{ code: 'I00004', text: 'No records found.' }] } };

  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const refusal = (errorCode: string, errorText: string, responseCode = '3') => ({
    transactionResponse: { responseCode, transId: '0', refTransID: '', accountNumber: 'XXXX1111', accountType: 'Visa', errors: [{ errorCode, errorText }] },
    messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
  });
  const notFound = () => refusal('16', 'The transaction cannot be found.');

  /** refundTransaction and voidTransaction, by the rules in this file's header. */
  function giveBack(transaction: Record<string, unknown>, invoiceNumber: string | undefined, duplicateWindow: string | undefined): unknown {
    if (stub.scenario === 'decline') return refusal('2', 'This transaction has been declined.', '2');
    if (stub.scenario === 'error') return refusal('54', 'The referenced transaction does not meet the criteria for issuing a credit.');
    const refTransId = String(transaction.refTransId ?? '');
    const charge = stub.transactions.find((t) => t.transId === refTransId && !t.refTransId);
    if (!charge) return notFound();
    const approved = (transId: string, refTransID: string) => ({
      transactionResponse: { responseCode: '1', authCode: '', avsResultCode: 'P', cvvResultCode: '', transId, refTransID, accountNumber: 'XXXX1111', accountType: 'Visa', messages: [{ code: '1', description: 'This transaction has been approved.' }] },
      messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
    });

    if (transaction.transactionType === 'voidTransaction') {
      if (charge.transactionStatus === 'voided') return refusal('310', 'This transaction has already been voided.');
      if (charge.transactionStatus !== 'capturedPendingSettlement') return notFound();
      charge.transactionStatus = 'voided';
      return approved(charge.transId, charge.transId);
    }

    const card = ((transaction.payment ?? {}) as { creditCard?: { cardNumber?: string; expirationDate?: string } }).creditCard ?? {};
    if (card.cardNumber !== '1111' || card.expirationDate !== 'XXXX') return notFound();
    if (charge.transactionStatus !== 'settledSuccessfully') return refusal('54', 'The referenced transaction does not meet the criteria for issuing a credit.');
    const amount = String(transaction.amount ?? '');
    const fingerprint = `refund:${invoiceNumber}:${amount}`;
    const seen = duplicates.get(fingerprint);
    if (seen !== undefined && Date.now() - seen < Number(duplicateWindow ?? 120) * 1000) return refusal('11', 'A duplicate transaction has been submitted.');
    const refunded = stub.transactions.filter((t) => t.refTransId === charge.transId && t.transactionStatus.startsWith('refund')).reduce((sum, t) => sum + cents(t.amount), 0);
    if (refunded + cents(amount) > cents(charge.amount)) return refusal('55', 'The sum of credits against the referenced transaction would exceed original debit amount.');
    duplicates.set(fingerprint, Date.now());
    const transId = String(nextTransId++);
    stub.transactions.push({ transId, invoiceNumber: invoiceNumber ?? '', amount, transactionStatus: 'refundPendingSettlement', submitTimeUTC: new Date().toISOString(), batchId: null, refTransId: charge.transId });
    return approved(transId, charge.transId);
  }

  /** getTransactionDetailsRequest: one transaction as the gateway details it, or E00040. */
  function details(transId: string): unknown {
    const t = stub.transactions.find((x) => x.transId === transId);
    if (!t) return topError('E00040', 'The record cannot be found.');
    return {
      transaction: {
        transId: t.transId,
        ...(t.refTransId ? { refTransId: t.refTransId } : {}),
        submitTimeUTC: t.submitTimeUTC,
        submitTimeLocal: t.submitTimeUTC,
        transactionType: t.refTransId ? 'refundTransaction' : 'authCaptureTransaction',
        transactionStatus: t.transactionStatus,
        responseCode: 1,
        responseReasonCode: 1,
        responseReasonDescription: 'Approval',
        authCode: 'ABC123',
        AVSResponse: 'Y',
        order: { invoiceNumber: t.invoiceNumber },
        authAmount: Number(t.amount),
        settleAmount: Number(t.amount),
        taxExempt: false,
        payment: { creditCard: { cardNumber: 'XXXX1111', expirationDate: 'XXXX', cardType: 'Visa' } },
        recurringBilling: false,
        product: 'Card Not Present',
        marketType: 'eCommerce',
        ...(t.batchId ? { batch: { batchId: t.batchId, settlementState: 'settledSuccessfully' } } : {}),
      },
      messages: ok,
    };
  }

  /**
   * getCustomerPaymentProfileRequest: a stored card as the gateway shows it (masked number; the expiry
   * only when unmaskExpirationDate is true, "XXXX" otherwise), or E00040 for a profile it does not have.
   */
  function paymentProfile(body: Record<string, unknown>): unknown {
    const customerProfileId = String(body.customerProfileId ?? '');
    const paymentProfileId = String(body.customerPaymentProfileId ?? '');
    const expirationDate = expirations.get(`${customerProfileId}/${paymentProfileId}`);
    if (!expirationDate) return topError('E00040', 'The record cannot be found.');
    const unmask = body.unmaskExpirationDate === true || body.unmaskExpirationDate === 'true';
    return {
      paymentProfile: {
        customerType: 'individual',
        billTo: { firstName: 'Ada', lastName: 'Lovelace', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345', country: 'US' },
        customerProfileId,
        customerPaymentProfileId: paymentProfileId,
        payment: { creditCard: { cardNumber: 'XXXX1111', expirationDate: unmask ? expirationDate : 'XXXX', cardType: 'Visa' } },
      },
      messages: ok,
    };
  }

  /** The reporting calls, from the transactions the stub made. */
  function report(name: string, body: Record<string, unknown>): unknown {
    if (name === 'getSettledBatchListRequest') {
      const first = Date.parse(String(body.firstSettlementDate ?? '')) || 0;
      const last = Date.parse(String(body.lastSettlementDate ?? '')) || Date.now();
      const list = batches.filter((b) => Date.parse(b.settlementTimeUTC) >= first - 1000 && Date.parse(b.settlementTimeUTC) <= last + 1000);
      if (!list.length) return noRecords;
      return {
        batchList: list.map((b) => ({ batchId: b.batchId, settlementTimeUTC: b.settlementTimeUTC, settlementTimeLocal: b.settlementTimeUTC, settlementState: 'settledSuccessfully', paymentMethod: 'creditCard', marketType: 'eCommerce', product: 'Card Not Present' })),
        messages: ok,
      };
    }
    const batchId = name === 'getTransactionListRequest' ? String(body.batchId ?? '') : null;
    const sorting = (body.sorting ?? {}) as { orderBy?: string; orderDescending?: boolean | string };
    const paging = (body.paging ?? {}) as { limit?: number | string; offset?: number | string };
    const limit = Number(paging.limit ?? 1000);
    const page = Number(paging.offset ?? 1);
    if (!(limit >= 1 && limit <= 1000) || !(page >= 1)) return topError('E00003', 'Paging: limit must be 1-1000 and offset at least 1.');
    const descending = sorting.orderDescending === true || sorting.orderDescending === 'true';
    const sorted = stub.transactions
      .filter((t) => t.batchId === batchId)
      .sort((a, b) => (a.submitTimeUTC < b.submitTimeUTC ? -1 : a.submitTimeUTC > b.submitTimeUTC ? 1 : Number(a.transId) - Number(b.transId)) * (descending ? -1 : 1));
    const slice = sorted.slice((page - 1) * limit, page * limit);
    if (!slice.length) return noRecords;
    return {
      transactions: slice.map((t) => ({
        transId: t.transId,
        submitTimeUTC: t.submitTimeUTC,
        submitTimeLocal: t.submitTimeUTC,
        transactionStatus: t.transactionStatus,
        invoiceNumber: t.invoiceNumber,
        firstName: 'Ada',
        lastName: 'Lovelace',
        accountType: 'Visa',
        accountNumber: 'XXXX1111',
        settleAmount: Number(t.amount),
        marketType: 'eCommerce',
        product: 'Card Not Present',
      })),
      totalNumInResultSet: sorted.length,
      messages: ok,
    };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (latencyMs <= 0) return handle(req, res, raw);
      stub.maxInFlight = Math.max(stub.maxInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        handle(req, res, raw);
      }, latencyMs);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/xml/v1/request.api`;
  stub.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return stub;
}
