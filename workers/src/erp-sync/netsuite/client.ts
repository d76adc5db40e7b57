/**
 * NetSuite SuiteTalk REST record client. Requests are signed with OAuth 1.0a TBA (HMAC-SHA256, a fresh
 * nonce and timestamp on every request, `./oauth.ts`) and sent over keep-alive `node:http(s)`
 * connections, at most `maxSockets` at once, each with a timeout. Records are written with upserts keyed
 * by external ids derived from our ids, their item lines sent whole (`?replace=item`), so any number of
 * retries yields one customer, one sales order and one credit memo per refund, each with the lines sent.
 */
import { createHash } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { SyncAttemptEntry } from '@nh/server/queries/sync';
import { OAuthSigner } from './oauth';
import { netsuite429, netsuiteConcurrencyInUse, netsuiteRequests } from '@nh/server/observability/metrics';
import type { NetSuiteConfig } from '../../lib/config';

/** rate_limit: 429, slow the whole queue; retryable: try again later; permanent: fix the data first. */
export type NetSuiteErrorKind = 'rate_limit' | 'retryable' | 'permanent';

/** The metrics' outcome of a failed request: rate-limited (429), client-error, server-error, timeout or network. */
function metricOutcome(e: NetSuiteError | null): string {
  if (!e) return 'network';
  if (e.status === 429) return 'rate-limited';
  if (e.status === null) return e.detail?.startsWith('timed out') ? 'timeout' : 'network';
  return e.status >= 500 ? 'server-error' : 'client-error';
}

export class NetSuiteError extends Error {
  override name = 'NetSuiteError';
  constructor(
    message: string,
    readonly kind: NetSuiteErrorKind,
    readonly status: number | null = null,
    readonly code: string | null = null,
    readonly retryAfterMs: number | null = null,
    /** NetSuite's own words (its error body's detail or title), or what went wrong on the way (timeout, network). */
    readonly detail: string | null = null,
  ) {
    super(message);
  }
}

/** The longest error detail a ledger entry keeps. */
const DETAIL_MAX = 1000;

/** External ids: letters, digits, `_` and `-` only. */
export const netsuiteExternalIds = {
  /** One customer per email address (case-insensitive); hashed so no address appears in URLs. */
  customer: (email: string) => `NH-CUST-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}`,
  salesOrder: (orderId: string) => `NH-ORD-${orderId.replace(/[^A-Za-z0-9_-]/g, '')}`,
  /** One credit memo per refund (its payment row's id): a retried sync updates it, never makes a second. */
  creditMemo: (refundId: string) => `NH-RFD-${refundId.replace(/[^A-Za-z0-9_-]/g, '')}`,
  /** One customer deposit per order paid partly or wholly with store credit (issue 23). */
  storeCreditDeposit: (orderId: string) => `NH-SCD-${orderId.replace(/[^A-Za-z0-9_-]/g, '')}`,
  /** A grant's or a refund to credit's credit memo: one per ledger entry (issue 23). */
  storeCreditMemo: (entryId: string) => `NH-SCM-${entryId.replace(/[^A-Za-z0-9_-]/g, '')}`,
  /** The customer refund that moves that credit memo into the store-credit liability: one per ledger entry. */
  storeCreditRefund: (entryId: string) => `NH-SCF-${entryId.replace(/[^A-Za-z0-9_-]/g, '')}`,
  /** The journal entry of an expiry (the liability released): one per ledger entry. */
  storeCreditExpiry: (entryId: string) => `NH-SCX-${entryId.replace(/[^A-Za-z0-9_-]/g, '')}`,
};

/**
 * The accounts an expiry's journal entry names (external ids the account must give them): the
 * store-credit liability (the NH-STORE-CREDIT payment method's account) and the goodwill expense (the
 * goodwill item's account). Only goodwill grants expire, so an expiry undoes the part of the expense
 * never used.
 */
export const STORE_CREDIT_ACCOUNTS = { liability: 'NH-STORE-CREDIT-LIABILITY', goodwillExpense: 'NH-GOODWILL-EXPENSE' } as const;

/** Store credit that expired (issue 23): Dr the store-credit liability, Cr the goodwill expense. */
export interface StoreCreditExpiryInput {
  entryId: string;
  customerInternalId: string;
  tranDate: string;
  /** Two-decimal string. */
  amount: string;
}

/**
 * The payment method of a store-credit deposit: the account must have it (external id), its deposit
 * account the store-credit liability (docs/decisions/store-credit.md, "NetSuite").
 */
export const STORE_CREDIT_PAYMENT_METHOD = 'NH-STORE-CREDIT';

/** The part of an order paid with store credit, as a customer deposit on its sales order. */
export interface StoreCreditDepositInput {
  orderId: string;
  customerInternalId: string;
  salesOrderInternalId: string;
  tranDate: string;
  /** Two-decimal string. */
  amount: string;
}

/**
 * Store credit given (a goodwill grant) or a refund given as credit (issue 23): a credit memo for the
 * customer (the grant on the goodwill item, whose account is the goodwill expense; a refund on the refund
 * item, naming the order as a card refund's memo does), then a customer refund of that credit memo paid
 * with the NH-STORE-CREDIT payment method, whose account is the store-credit liability: the credit sits
 * in the liability, not in the customer's receivable, until a deposit spends it.
 */
export interface StoreCreditMovementInput {
  /** The ledger entry's id (its records' external ids). */
  entryId: string;
  kind: 'grant' | 'refund';
  customerInternalId: string;
  email: string;
  /** yyyy-MM-dd: the day of the movement. */
  tranDate: string;
  /** Two-decimal string. */
  amount: string;
  /** The NetSuite item the credit memo line credits (external id). */
  itemRef: string;
  /** The order a refund to credit gives back (null for a grant). */
  orderId: string | null;
  /** Staff's reason (kept inside NetSuite: finance reads it; the shopper never sees it). */
  reason: string | null;
  /** A refund to credit's tax part on the sales tax item (issue 25); the refund item's line then credits the rest. */
  taxLine?: TaxLineInput | null;
}

export interface CustomerInput {
  email: string;
  name: string;
  phone?: string | null;
}

export interface SalesOrderLineInput {
  /** Our product's item number, or its sku: the NetSuite item carries it as its external id. */
  itemRef: string;
  description: string;
  quantity: number;
  /** Unit price as a two-decimal string. */
  rate: string;
}

/**
 * The shop's sales tax as one Other Charge line (issue 25): the NetSuite item (external id NH-SALES-TAX,
 * not taxable, its account the sales tax payable), what the line says (the ship-to state and ZIP, the rule
 * that worked it out) and the amount, a two-decimal string.
 */
export interface TaxLineInput {
  itemRef: string;
  description: string;
  amount: string;
}

export interface SalesOrderInput {
  orderId: string;
  customerInternalId: string;
  email: string;
  /** yyyy-MM-dd */
  tranDate: string;
  lines: SalesOrderLineInput[];
  /** Two-decimal strings. */
  shippingCost: string;
  discount: string;
  /** Store credit (issue 23) paid this much of the total (two-decimal string); sent as a customer deposit, named in the memo. */
  storeCredit?: string;
  tax: string;
  /**
   * The order's tax as its own line (null when there is none): every line is sent not taxable, so NetSuite
   * adds no tax of its own and the sales order's total is ours.
   */
  taxLine?: TaxLineInput | null;
  total: string;
  promoCode?: string | null;
  /** Where the order ships (a renewal's is its plan's address at the time of the renewal): the sales order's shipping address. */
  shippingAddress?: { addressee: string; address: string; city: string; state: string; zip: string } | null;
  memo?: string;
  /**
   * A damage claim's $0 replacement (issue 23): the web order it replaces. The sales order carries that
   * order's sales-order external id in the custom body field `custbody_nh_replacement_of` and names it in
   * the memo (docs/decisions/claims.md).
   */
  replacementOf?: string | null;
  /**
   * The order's payment was voided, or refunded in full before it shipped: every line is closed
   * (`isClosed`), so nothing is fulfilled or billed from the sales order, and the memo says why.
   */
  closed?: 'voided' | 'refunded' | null;
}

/**
 * A refund of (part of) an order's payment, as a NetSuite credit memo of the order's customer: a line of
 * the refund item for the amount given back before tax and a line of the sales tax item for its tax part
 * (issue 25; both not taxable, together the amount given back), the web order's id as `otherRefNum` (the
 * sales order carries the same), and a memo naming the sales order and the reason.
 */
export interface CreditMemoInput {
  /** The refund's payment row id (its external id). */
  refundId: string;
  orderId: string;
  customerInternalId: string;
  email: string;
  /** yyyy-MM-dd: the day of the refund. */
  tranDate: string;
  /** Two-decimal string. */
  amount: string;
  /** The NetSuite item the line credits: an Other Charge item whose external id is this. */
  itemRef: string;
  reason: string | null;
  /**
   * The refund's tax part on the sales tax item (null: none): the refund item's line then credits the
   * amount less it, so the memo's total is still the amount given back.
   */
  taxLine?: TaxLineInput | null;
}

/** The sublists our transactions send whole on every upsert (`?replace=item`): the item lines. */
const LINE_SUBLISTS = ['item'] as const;
/** A customer refund's applied documents, sent whole as the lines are. */
const APPLY_SUBLISTS = ['apply'] as const;
/** A journal entry's lines, sent whole. */
const JOURNAL_SUBLISTS = ['line'] as const;

/** The longest memo NetSuite keeps on a transaction. */
const MEMO_MAX = 999;

interface SendResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const RECORD_PATH = 'record/v1';
const DEFAULT_TIMEOUT_MS = 15_000;

const money = (decimal: string) => Number(decimal);
/** Cents of a two-decimal string, for exact sums (the wire carries numbers). */
const cents = (decimal: string) => Math.round(Number(decimal) * 100);

/** A tax line as NetSuite's item sublist takes it: the sales tax item, quantity 1, never taxed itself. */
const taxItemLine = (line: TaxLineInput) => ({
  item: { externalId: line.itemRef },
  description: line.description,
  quantity: 1,
  rate: money(line.amount),
  amount: money(line.amount),
  isTaxable: false,
});

function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  if (parts.length < 2) return { firstName: parts[0] || 'Customer', lastName: '-' };
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts.at(-1)! };
}

/** NetSuite's error body: `{type,title,status,"o:errorDetails":[{detail,"o:errorCode"}]}` or a top-level `o:errorCode`. */
export function describeNetSuiteError(body: unknown): { code: string | null; detail: string | null } {
  if (!body || typeof body !== 'object') return { code: null, detail: null };
  const record = body as Record<string, unknown>;
  const details = Array.isArray(record['o:errorDetails']) ? (record['o:errorDetails'] as Array<Record<string, unknown>>) : [];
  const first = details[0];
  const code = (first?.['o:errorCode'] ?? record['o:errorCode'] ?? null) as string | null;
  const detail = (first?.detail ?? record.title ?? record.detail ?? null) as string | null;
  return { code: code ? String(code) : null, detail: detail ? String(detail) : null };
}

/** Maps an HTTP failure to an error kind: 429 rate limit; 5xx, 408, 409 and 401 (spurious under load) retryable; other 4xx permanent. */
export function classifyStatus(status: number): NetSuiteErrorKind {
  if (status === 429) return 'rate_limit';
  if (status >= 500 || status === 408 || status === 409 || status === 401) return 'retryable';
  return 'permanent';
}

function retryAfterMs(headers: IncomingHttpHeaders): number | null {
  const value = headers['retry-after'];
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

const STATUS_TEXT = http.STATUS_CODES;

export class NetSuiteClient {
  readonly baseUrl: string;
  readonly signer: OAuthSigner;
  private readonly timeoutMs: number;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly host: { hostname: string; port: string };
  private readonly basePath: string;

  constructor(config: NetSuiteConfig) {
    this.baseUrl = (config.baseUrl ?? `https://${config.accountId.toLowerCase().replace(/_/g, '-')}.suitetalk.api.netsuite.com`).replace(/\/+$/, '');
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.signer = new OAuthSigner(config);
    const url = new URL(this.baseUrl);
    this.transport = url.protocol === 'https:' ? https : http;
    const sockets = config.maxSockets ?? 4;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, scheduling: 'lifo' });
    this.host = { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port };
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  /** Closes the idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  /** One signed request (fresh nonce and timestamp every call). Throws NetSuiteError on failure. */
  async send(method: string, path: string, body?: unknown): Promise<SendResult> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let response: RawResponse;
    try {
      response = await this.exchange(method, path, payload).catch((error: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
        // A kept-alive connection the server closed just as we reused it: send once more, signed afresh
        // (every request here is an idempotent upsert or read).
        if (error.reusedSocket && error.code === 'ECONNRESET') return this.exchange(method, path, payload);
        throw error;
      });
    } catch (error) {
      const err = error as Error;
      const reason = err.name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : err.message;
      throw new NetSuiteError(`NetSuite ${method} ${path}: ${reason}`, 'retryable', null, null, null, reason);
    }
    const { status, headers, text } = response;
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (status < 200 || status >= 300) {
      const { code, detail } = describeNetSuiteError(parsed);
      const words = detail ?? (typeof parsed === 'string' && parsed ? parsed.slice(0, 200) : STATUS_TEXT[status] ?? '');
      const message = `NetSuite ${status}${code ? ` ${code}` : ''}: ${words}`;
      throw new NetSuiteError(message, classifyStatus(status), status, code, retryAfterMs(headers), words || null);
    }
    return { status, headers, body: parsed };
  }

  /** The HTTP exchange itself: whole response as text, or an error (network, `TimeoutError`). */
  private exchange(method: string, path: string, payload: string | undefined): Promise<RawResponse> {
    const requestPath = `${this.basePath}/services/rest/${path}`;
    const headers: http.OutgoingHttpHeaders = {
      authorization: this.signer.authorization(method, `${this.baseUrl}/services/rest/${path}`),
      accept: 'application/json',
    };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
      headers.prefer = 'transient';
    }
    return new Promise<RawResponse>((resolve, reject) => {
      const req = this.transport.request({ ...this.host, agent: this.agent, method, path: requestPath, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
        res.on('error', fail);
        // A response cut off without an error of its own.
        res.on('close', () => {
          if (!res.complete) fail(new Error('response aborted'));
        });
      });
      const timer = setTimeout(() => {
        const error = new Error(`timed out after ${this.timeoutMs} ms`);
        error.name = 'TimeoutError';
        req.destroy(error);
      }, this.timeoutMs);
      function fail(error: Error) {
        clearTimeout(timer);
        reject(Object.assign(error, { reusedSocket: req.reusedSocket }));
      }
      req.on('error', fail);
      req.end(payload);
    });
  }

  /**
   * Creates or updates `type` keyed by `externalId` (`PUT …/<type>/eid:<externalId>`) and returns the
   * internal id: from the `Location` header when present, else read back with `GET …/eid:<externalId>`.
   * Each request made is pushed to `ledger` when one is given.
   *
   * `replace` names the record's sublists the request sends whole (`?replace=item`). On an update
   * NetSuite adds the lines of a sublist that carry no line key to the lines already there ("Updating a
   * Sublist"); with `replace` it removes those and keeps only the lines sent ("Replacing a Sublist"). So
   * every record with lines is upserted with its line sublists named here: a repeated upsert (a lost
   * answer, a retried job, the sales order sent again to close it) leaves the lines sent, never copies.
   */
  async upsert(
    type: string,
    externalId: string,
    record: Record<string, unknown>,
    ledger?: SyncAttemptEntry[],
    replace: readonly string[] = [],
  ): Promise<string> {
    if (!/^[A-Za-z0-9_-]+$/.test(externalId)) throw new NetSuiteError(`Invalid external id: ${externalId}`, 'permanent');
    const path = `${RECORD_PATH}/${type}/eid:${externalId}`;
    const query = replace.length > 0 ? `?replace=${replace.map(encodeURIComponent).join(',')}` : '';
    const result = await this.logged(ledger, type, 'PUT', `${path}${query}`, record);
    const location = result.headers.location;
    const fromLocation = location?.split('?')[0]?.split('/').pop();
    if (fromLocation && /^\d+$/.test(fromLocation)) return fromLocation;
    const read = await this.logged(ledger, type, 'GET', path);
    const id = (read.body as { id?: unknown } | null)?.id;
    if (id === undefined || id === null || id === '') throw new NetSuiteError(`NetSuite ${type} ${externalId}: no internal id after upsert`, 'retryable');
    return String(id);
  }

  /**
   * `send`, with the request counted in the metrics (by record and outcome; 429s; requests in flight)
   * and its entry pushed to `ledger` (when given) whether it succeeded or not.
   */
  private async logged(ledger: SyncAttemptEntry[] | undefined, record: string, method: string, path: string, body?: unknown): Promise<SendResult> {
    const at = Date.now();
    const started = performance.now();
    netsuiteConcurrencyInUse.inc();
    try {
      const result = await this.send(method, path, body);
      netsuiteRequests.inc({ record, outcome: 'ok' });
      ledger?.push({ at, record, outcome: 'ok', httpStatus: result.status, errorCode: null, errorDetail: null, durationMs: Math.round(performance.now() - started) });
      return result;
    } catch (error) {
      const e = error instanceof NetSuiteError ? error : null;
      netsuiteRequests.inc({ record, outcome: metricOutcome(e) });
      if (e?.status === 429) netsuite429.inc();
      const detail = e ? e.detail : error instanceof Error ? error.message : String(error);
      ledger?.push({
        at,
        record,
        outcome: 'failed',
        httpStatus: e?.status ?? null,
        errorCode: e?.code ?? null,
        errorDetail: detail && detail.length > DETAIL_MAX ? detail.slice(0, DETAIL_MAX) : detail,
        durationMs: Math.round(performance.now() - started),
      });
      throw error;
    } finally {
      netsuiteConcurrencyInUse.dec();
    }
  }

  upsertCustomer(input: CustomerInput, ledger?: SyncAttemptEntry[]): Promise<string> {
    const { firstName, lastName } = splitName(input.name);
    return this.upsert(
      'customer',
      netsuiteExternalIds.customer(input.email),
      { isPerson: true, firstName, lastName, email: input.email, ...(input.phone ? { phone: input.phone } : {}) },
      ledger,
    );
  }

  /**
   * A customer confirmed a new email address (issue 23): their NetSuite customer, keyed by the old
   * address's external id, gets the new address and the new address's external id (`PATCH
   * customer/eid:<old>`), so the next order's upsert by the new address finds the same record.
   * `not-found`: NetSuite never had the customer (nothing to do). `email-only`: NetSuite already has a
   * customer under the new address (a guest's orders): the old record gets the address, the two records
   * stay for finance to merge.
   */
  async updateCustomerEmail(previousEmail: string, email: string, ledger?: SyncAttemptEntry[]): Promise<'updated' | 'already' | 'not-found' | 'email-only'> {
    const from = netsuiteExternalIds.customer(previousEmail);
    const to = netsuiteExternalIds.customer(email);
    const patch = (externalId: string, body: Record<string, unknown>) => this.logged(ledger, 'customer', 'PATCH', `${RECORD_PATH}/customer/eid:${externalId}`, body);
    const missing = (error: unknown) => error instanceof NetSuiteError && error.status === 404;
    try {
      await patch(from, from === to ? { email } : { email, externalId: to });
      return 'updated';
    } catch (error) {
      if (missing(error)) {
        // A retry after the re-keying went through (its answer lost): the record is under the new key already.
        try {
          const read = await this.logged(ledger, 'customer', 'GET', `${RECORD_PATH}/customer/eid:${to}`);
          return (read.body as { email?: unknown } | null)?.email === email ? 'already' : 'not-found';
        } catch (readError) {
          if (missing(readError)) return 'not-found';
          throw readError;
        }
      }
      if (error instanceof NetSuiteError && error.status === 400 && /already exists|DUP_RCRD/i.test(`${error.code ?? ''} ${error.detail ?? ''}`)) {
        await patch(from, { email });
        return 'email-only';
      }
      throw error;
    }
  }

  upsertSalesOrder(input: SalesOrderInput, ledger?: SyncAttemptEntry[]): Promise<string> {
    const closed = input.closed ? `; closed: payment ${input.closed}` : '';
    // A damage claim's replacement (issue 23): no charge, and which order (and sales order) it replaces.
    const replacement = input.replacementOf ? `; replacement (no charge) for web order ${input.replacementOf}, sales order ${netsuiteExternalIds.salesOrder(input.replacementOf)}` : '';
    return this.upsert('salesOrder', netsuiteExternalIds.salesOrder(input.orderId), {
      entity: { id: input.customerInternalId },
      tranDate: input.tranDate,
      otherRefNum: input.orderId,
      email: input.email,
      // Our tax is its own line (NH-SALES-TAX) and no line is taxable, so NetSuite adds no tax and its total is
      // ours; both also travel in the memo for reconciliation.
      memo: input.memo ?? `Web order ${input.orderId}; tax ${input.tax}; total ${input.total}${input.promoCode ? `; promo ${input.promoCode}` : ''}${input.storeCredit && money(input.storeCredit) > 0 ? `; store credit ${input.storeCredit}` : ''}${replacement}${closed}`,
      ...(input.replacementOf ? { custbody_nh_replacement_of: netsuiteExternalIds.salesOrder(input.replacementOf) } : {}),
      shippingCost: money(input.shippingCost),
      // The transaction's own shipping address (the REST address subrecord), whatever the customer record's default.
      ...(input.shippingAddress
        ? {
            shippingAddress: {
              addressee: input.shippingAddress.addressee,
              addr1: input.shippingAddress.address,
              city: input.shippingAddress.city,
              state: input.shippingAddress.state,
              zip: input.shippingAddress.zip,
              country: { id: 'US' },
            },
          }
        : {}),
      ...(money(input.discount) > 0 ? { discountRate: -money(input.discount) } : {}),
      item: {
        items: [
          ...input.lines.map((line) => ({
            item: { externalId: line.itemRef },
            description: line.description,
            quantity: line.quantity,
            rate: money(line.rate),
            isTaxable: false,
            ...(input.closed ? { isClosed: true } : {}),
          })),
          ...(input.taxLine ? [{ ...taxItemLine(input.taxLine), ...(input.closed ? { isClosed: true } : {}) }] : []),
        ],
      },
    }, ledger, LINE_SUBLISTS);
  }

  /**
   * Creates or updates the store-credit deposit of an order (`PUT customerDeposit/eid:NH-SCD-<order id>`):
   * the credit's part of the payment, on the sales order, which NetSuite's deposit application applies
   * to the invoice when the order is billed. One per order, however often sent.
   */
  upsertStoreCreditDeposit(input: StoreCreditDepositInput, ledger?: SyncAttemptEntry[]): Promise<string> {
    return this.upsert(
      'customerDeposit',
      netsuiteExternalIds.storeCreditDeposit(input.orderId),
      {
        customer: { id: input.customerInternalId },
        salesOrder: { id: input.salesOrderInternalId },
        tranDate: input.tranDate,
        payment: money(input.amount),
        paymentMethod: { externalId: STORE_CREDIT_PAYMENT_METHOD },
        memo: `Store credit used on web order ${input.orderId} (sales order ${netsuiteExternalIds.salesOrder(input.orderId)})`,
      },
      ledger,
    );
  }

  /** The credit memo of a store-credit grant or refund to credit (`PUT creditMemo/eid:NH-SCM-<entry id>`). */
  upsertStoreCreditMemo(input: StoreCreditMovementInput, ledger?: SyncAttemptEntry[]): Promise<string> {
    const what = input.kind === 'grant' ? 'Store credit given (goodwill)' : `Refund to store credit of web order ${input.orderId} (sales order ${netsuiteExternalIds.salesOrder(input.orderId ?? '')})`;
    const memo = `${what}${input.reason ? `: ${input.reason}` : ''}`;
    return this.upsert(
      'creditMemo',
      netsuiteExternalIds.storeCreditMemo(input.entryId),
      {
        entity: { id: input.customerInternalId },
        tranDate: input.tranDate,
        ...(input.orderId ? { otherRefNum: input.orderId } : {}),
        email: input.email,
        memo: memo.length > MEMO_MAX ? `${memo.slice(0, MEMO_MAX - 1)}…` : memo,
        item: { items: refundLines({ ...input, description: what }) },
      },
      ledger,
      LINE_SUBLISTS,
    );
  }

  /**
   * The customer refund that pays the store-credit credit memo into the store-credit liability
   * (`PUT customerRefund/eid:NH-SCF-<entry id>`, payment method NH-STORE-CREDIT): instead of a cash or card refund.
   */
  upsertStoreCreditRefund(input: StoreCreditMovementInput, creditMemoInternalId: string, ledger?: SyncAttemptEntry[]): Promise<string> {
    return this.upsert(
      'customerRefund',
      netsuiteExternalIds.storeCreditRefund(input.entryId),
      {
        customer: { id: input.customerInternalId },
        tranDate: input.tranDate,
        paymentMethod: { externalId: STORE_CREDIT_PAYMENT_METHOD },
        memo: `Store credit ${input.kind === 'grant' ? 'given' : `refunded for web order ${input.orderId}`} (ledger entry ${input.entryId}), held as store credit`,
        apply: { items: [{ doc: { id: creditMemoInternalId }, apply: true, amount: money(input.amount) }] },
      },
      ledger,
      APPLY_SUBLISTS,
    );
  }

  /** The journal entry of expired store credit (`PUT journalEntry/eid:NH-SCX-<entry id>`), its lines sent whole. */
  upsertStoreCreditExpiry(input: StoreCreditExpiryInput, ledger?: SyncAttemptEntry[]): Promise<string> {
    const memo = `Store credit expired (ledger entry ${input.entryId})`;
    const amount = money(input.amount);
    return this.upsert(
      'journalEntry',
      netsuiteExternalIds.storeCreditExpiry(input.entryId),
      {
        tranDate: input.tranDate,
        memo,
        line: {
          items: [
            { account: { externalId: STORE_CREDIT_ACCOUNTS.liability }, debit: amount, entity: { id: input.customerInternalId }, memo },
            { account: { externalId: STORE_CREDIT_ACCOUNTS.goodwillExpense }, credit: amount, entity: { id: input.customerInternalId }, memo },
          ],
        },
      },
      ledger,
      JOURNAL_SUBLISTS,
    );
  }

  /** Creates or updates the refund's credit memo (`PUT creditMemo/eid:NH-RFD-<refund id>`): one per refund, however often sent. */
  upsertCreditMemo(input: CreditMemoInput, ledger?: SyncAttemptEntry[]): Promise<string> {
    const memo = `Refund of web order ${input.orderId} (sales order ${netsuiteExternalIds.salesOrder(input.orderId)})${input.reason ? `: ${input.reason}` : ''}`;
    return this.upsert(
      'creditMemo',
      netsuiteExternalIds.creditMemo(input.refundId),
      {
        entity: { id: input.customerInternalId },
        tranDate: input.tranDate,
        otherRefNum: input.orderId,
        email: input.email,
        memo: memo.length > MEMO_MAX ? `${memo.slice(0, MEMO_MAX - 1)}…` : memo,
        item: { items: refundLines({ ...input, description: `Refund of web order ${input.orderId}` }) },
      },
      ledger,
      LINE_SUBLISTS,
    );
  }
}

/**
 * A credit memo's lines: the amount before tax on its item (the refund item, or the goodwill item of a
 * grant), not taxable, then any tax part on the sales tax item; together the amount.
 */
function refundLines(input: { itemRef: string; description: string; amount: string; taxLine?: TaxLineInput | null }): Array<Record<string, unknown>> {
  const tax = input.taxLine ? cents(input.taxLine.amount) : 0;
  const beforeTax = (cents(input.amount) - tax) / 100;
  const line = { item: { externalId: input.itemRef }, description: input.description, quantity: 1, rate: beforeTax, amount: beforeTax, isTaxable: false };
  return [...(beforeTax > 0 || !input.taxLine ? [line] : []), ...(input.taxLine ? [taxItemLine(input.taxLine)] : [])];
}
