// netsuite-rest ships no types; the reference makes ours visible to every project compiling this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./netsuite-rest.d.ts" />
/**
 * NetSuite SuiteTalk REST record client. `netsuite-rest` only signs (OAuth 1.0a TBA, HMAC-SHA256): its
 * own HTTP client drops response headers, sets no timeout and retries with the same nonce. Requests go
 * out with fetch and a timeout, each one signed afresh. Records are written with upserts keyed by
 * external ids derived from our ids, so any number of retries yields one customer and one sales order.
 */
import { createHash } from 'node:crypto';
import NetsuiteRest from 'netsuite-rest';

export interface NetSuiteConfig {
  accountId: string;
  consumerKey: string;
  consumerSecret: string;
  tokenId: string;
  tokenSecret: string;
  /** Overrides `https://<account>.suitetalk.api.netsuite.com` (a sandbox proxy, the test server). */
  baseUrl?: string;
  timeoutMs?: number;
}

/** rate_limit: 429, slow the whole queue; retryable: try again later; permanent: fix the data first. */
export type NetSuiteErrorKind = 'rate_limit' | 'retryable' | 'permanent';

export class NetSuiteError extends Error {
  override name = 'NetSuiteError';
  constructor(
    message: string,
    readonly kind: NetSuiteErrorKind,
    readonly status: number | null = null,
    readonly code: string | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** External ids: letters, digits, `_` and `-` only. */
export const netsuiteExternalIds = {
  /** One customer per email address (case-insensitive); hashed so no address appears in URLs. */
  customer: (email: string) => `NH-CUST-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}`,
  salesOrder: (orderId: string) => `NH-ORD-${orderId.replace(/[^A-Za-z0-9_-]/g, '')}`,
};

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
  tax: string;
  total: string;
  promoCode?: string | null;
  memo?: string;
}

interface SendResult {
  status: number;
  headers: Headers;
  body: unknown;
}

const RECORD_PATH = 'record/v1';
const DEFAULT_TIMEOUT_MS = 15_000;

const money = (decimal: string) => Number(decimal);

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

function retryAfterMs(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

export class NetSuiteClient {
  readonly baseUrl: string;
  private readonly signer: NetsuiteRest;
  private readonly timeoutMs: number;

  constructor(config: NetSuiteConfig) {
    this.baseUrl = (config.baseUrl ?? `https://${config.accountId.toLowerCase().replace(/_/g, '-')}.suitetalk.api.netsuite.com`).replace(/\/+$/, '');
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.signer = new NetsuiteRest({
      consumer_key: config.consumerKey,
      consumer_secret_key: config.consumerSecret,
      token: config.tokenId,
      token_secret: config.tokenSecret,
      realm: config.accountId,
    });
  }

  /** One signed request (fresh nonce and timestamp every call). Throws NetSuiteError on failure. */
  async send(method: string, path: string, body?: unknown): Promise<SendResult> {
    const url = `${this.baseUrl}/services/rest/${path}`;
    const headers: Record<string, string> = {
      ...this.signer.getAuthorizationHeader({ url, method }),
      accept: 'application/json',
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers.prefer = 'transient';
    }
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const err = error as Error;
      const reason = err.name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : (err.cause as Error | undefined)?.message ?? err.message;
      throw new NetSuiteError(`NetSuite ${method} ${path}: ${reason}`, 'retryable');
    }
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok) {
      const { code, detail } = describeNetSuiteError(parsed);
      const message = `NetSuite ${response.status}${code ? ` ${code}` : ''}: ${detail ?? (typeof parsed === 'string' && parsed ? parsed.slice(0, 200) : response.statusText)}`;
      throw new NetSuiteError(message, classifyStatus(response.status), response.status, code, retryAfterMs(response.headers));
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /**
   * Creates or updates `type` keyed by `externalId` (`PUT …/<type>/eid:<externalId>`) and returns the
   * internal id: from the `Location` header when present, else read back with `GET …/eid:<externalId>`.
   */
  async upsert(type: string, externalId: string, record: Record<string, unknown>): Promise<string> {
    if (!/^[A-Za-z0-9_-]+$/.test(externalId)) throw new NetSuiteError(`Invalid external id: ${externalId}`, 'permanent');
    const path = `${RECORD_PATH}/${type}/eid:${externalId}`;
    const result = await this.send('PUT', path, record);
    const location = result.headers.get('location');
    const fromLocation = location?.split('?')[0]?.split('/').pop();
    if (fromLocation && /^\d+$/.test(fromLocation)) return fromLocation;
    const read = await this.send('GET', path);
    const id = (read.body as { id?: unknown } | null)?.id;
    if (id === undefined || id === null || id === '') throw new NetSuiteError(`NetSuite ${type} ${externalId}: no internal id after upsert`, 'retryable');
    return String(id);
  }

  upsertCustomer(input: CustomerInput): Promise<string> {
    const { firstName, lastName } = splitName(input.name);
    return this.upsert('customer', netsuiteExternalIds.customer(input.email), {
      isPerson: true,
      firstName,
      lastName,
      email: input.email,
      ...(input.phone ? { phone: input.phone } : {}),
    });
  }

  upsertSalesOrder(input: SalesOrderInput): Promise<string> {
    return this.upsert('salesOrder', netsuiteExternalIds.salesOrder(input.orderId), {
      entity: { id: input.customerInternalId },
      tranDate: input.tranDate,
      otherRefNum: input.orderId,
      email: input.email,
      // Tax and the total are NetSuite's to compute; ours travel in the memo for reconciliation.
      memo: input.memo ?? `Web order ${input.orderId}; tax ${input.tax}; total ${input.total}${input.promoCode ? `; promo ${input.promoCode}` : ''}`,
      shippingCost: money(input.shippingCost),
      ...(money(input.discount) > 0 ? { discountRate: -money(input.discount) } : {}),
      item: {
        items: input.lines.map((line) => ({
          item: { externalId: line.itemRef },
          description: line.description,
          quantity: line.quantity,
          rate: money(line.rate),
        })),
      },
    });
  }
}
