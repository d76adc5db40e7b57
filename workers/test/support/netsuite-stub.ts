/**
 * A local server speaking NetSuite's SuiteTalk REST record API, for tests and benchmarks: it verifies
 * OAuth 1.0a (HMAC-SHA256) signatures with the shared secrets and rejects reused nonces, creates
 * (`POST` → 204 + Location), upserts by external id (`PUT …/eid:<id>`), reads by id or external id,
 * answers errors in NetSuite's `o:errorDetails` shape, returns 429 above a concurrency limit, and can be
 * told to fail the next N requests (5xx), to fail every write with a validation 400, or to be slow.
 *
 * Records it checks as NetSuite does: a customer needs an email; a sales order and a credit memo need an
 * existing customer as `entity` ("Invalid entity reference key.") and at least one item line with an item
 * reference and a positive quantity; a line's `isClosed` must be a boolean; a credit memo's lines need a
 * rate of at least 0 and its total must be more than 0 ("The total must be greater than zero." is the
 * stub's words). Sublists on an update, as NetSuite's "Updating a Sublist" and "Replacing a Sublist":
 * the lines sent (the stub's carry no line keys) are added to the lines already there, unless the
 * request names the sublist in its `replace` query parameter (`?replace=item`): then they replace them.
 * A customer refund needs an existing customer and applies existing credit memos; a journal entry's lines
 * balance. `PATCH` updates the fields sent (an `externalId` among them re-keys the record).
 * A write can be held until the test lets it through (`holdNextWrite`), to run two syncs against each other.
 *
 * Tax as a legacy-tax (not SuiteTax) US account works it out (issue 25): a line's `isTaxable` must be a
 * boolean; a line not sent `isTaxable: false` is taxed by the account's own tax item (the customer's
 * default, `accountTaxRate`, 8 %), and the stub keeps NetSuite's read-only `taxTotal` and `total` on a
 * sales order or credit memo (Σ quantity × rate, less the discount, plus shipping, plus that tax), so a
 * test sees whether NetSuite would add tax of its own to the lines the shop sent.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NetSuiteConfig } from '../../src/lib/config';

export interface StubRecord {
  id: string;
  externalId: string | null;
  type: string;
  body: Record<string, unknown>;
  writes: number;
}

export interface NetSuiteStubOptions {
  concurrencyLimit?: number;
  /** Delay before answering a request (a slow NetSuite). */
  delayMs?: number;
}

const CREDENTIALS = {
  accountId: 'TSTDRV123_SB1',
  consumerKey: 'stub-consumer-key',
  consumerSecret: 'stub-consumer-secret',
  tokenId: 'stub-token-id',
  tokenSecret: 'stub-token-secret',
};

/** The worker's NETSUITE_* settings for a stub at `url` (its credentials are fixed). */
export function netSuiteStubEnv(url: string): Record<string, string> {
  return {
    NETSUITE_ACCOUNT_ID: CREDENTIALS.accountId,
    NETSUITE_CONSUMER_KEY: CREDENTIALS.consumerKey,
    NETSUITE_CONSUMER_SECRET: CREDENTIALS.consumerSecret,
    NETSUITE_TOKEN_ID: CREDENTIALS.tokenId,
    NETSUITE_TOKEN_SECRET: CREDENTIALS.tokenSecret,
    NETSUITE_BASE_URL: url,
  };
}

const RESERVED = /[!*'()]/g;
function percentEncode(value: string): string {
  const encoded = encodeURIComponent(value);
  RESERVED.lastIndex = 0;
  return RESERVED.test(encoded) ? encoded.replace(RESERVED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : encoded;
}

const HEADER_PARAM = /([A-Za-z_]+)="([^"]*)"/g;
const byKeyThenValue = (a: readonly [string, string], b: readonly [string, string]) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1);

const SIGNING_KEY = createSecretKey(Buffer.from(`${percentEncode(CREDENTIALS.consumerSecret)}&${percentEncode(CREDENTIALS.tokenSecret)}`));

function errorBody(status: number, title: string, detail: string, code: string) {
  return { type: 'https://www.rfc-editor.org/rfc/rfc9110.html#section-15', title, status, 'o:errorDetails': [{ detail, 'o:errorCode': code }] };
}

export class NetSuiteStub {
  readonly records = new Map<string, StubRecord>();
  private readonly byExternalId = new Map<string, string>();
  readonly requests: Array<{ method: string; path: string; status: number }> = [];
  concurrencyLimit: number;
  delayMs: number;
  /** Delay applied only to sales-order writes (to kill a worker in the middle of a sync). */
  salesOrderDelayMs = 0;
  private failNextCount = 0;
  /** Writes of this record type that are made and then never answered (the connection dropped after NetSuite committed). */
  private lostAnswers: { type: string; count: number } | null = null;
  private failStatus = 503;
  private hold: { type: string; arrive: () => void; released: Promise<void> } | null = null;
  private validationFailure: string | null = null;
  private inFlight = 0;
  private nextId = 1000;
  private readonly nonces = new Set<string>();
  private server: Server | null = null;
  url = '';
  /** Sends Location on upserts (real accounts do); off makes the client read the id back with GET. */
  locationOnUpsert = true;
  rejected429 = 0;
  /** Sales-order writes that reached the handler (including ones still waiting on a delay). */
  salesOrderWritesStarted = 0;
  /** Retry-After of a 429, in seconds (fractions allowed here to keep tests quick). */
  retryAfterSeconds = 1;
  maxInFlight = 0;
  /** TCP connections accepted (keep-alive clients reuse theirs). */
  connections = 0;
  /** The account's own sales tax rate (its default tax item): what NetSuite adds on a line sent taxable. */
  accountTaxRate = 0.08;

  constructor(options: NetSuiteStubOptions = {}) {
    this.concurrencyLimit = options.concurrencyLimit ?? 5;
    this.delayMs = options.delayMs ?? 0;
  }

  /** Client configuration matching this stub's credentials. */
  config(overrides: Partial<NetSuiteConfig> = {}): NetSuiteConfig {
    return { ...CREDENTIALS, baseUrl: this.url, timeoutMs: 5000, ...overrides };
  }

  /** Environment variables for a worker process pointed at this stub. */
  env(): Record<string, string> {
    return netSuiteStubEnv(this.url);
  }

  failNext(count: number, status = 503): void {
    this.failNextCount = count;
    this.failStatus = status;
  }

  /**
   * The next `count` writes of `type` are made (the record saved) but their answer never arrives: the
   * connection is dropped, as when NetSuite committed and the network then failed. A retry must not make
   * a second record.
   */
  loseAnswersAfterWrite(type: string, count = 1): void {
    this.lostAnswers = { type, count };
  }

  /**
   * The next write of `type` waits, before NetSuite applies it, until `release()` is called: `arrived`
   * resolves once it is waiting. One write only; another call replaces an unused hold.
   */
  holdNextWrite(type: string): { arrived: Promise<void>; release: () => void } {
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.hold = { type, arrive, released };
    return { arrived, release };
  }

  /** Every write answers 400 with this detail until cleared with null. */
  failValidation(detail: string | null): void {
    this.validationFailure = detail;
  }

  salesOrders(): StubRecord[] {
    return [...this.records.values()].filter((r) => r.type === 'salesOrder');
  }

  creditMemos(): StubRecord[] {
    return [...this.records.values()].filter((r) => r.type === 'creditMemo');
  }

  /** How many sales-order records exist for an external id (an idempotent sync leaves exactly one). */
  salesOrderCount(externalId: string): number {
    return this.salesOrders().filter((r) => r.externalId === externalId).length;
  }

  find(type: string, externalId: string): StubRecord | undefined {
    const id = this.byExternalId.get(`${type}/${externalId}`);
    return id === undefined ? undefined : this.records.get(`${type}/${id}`);
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', () => this.connections++);
    this.server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  private send(res: ServerResponse, req: IncomingMessage, status: number, body?: unknown, headers: Record<string, string> = {}) {
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', status });
    if (res.destroyed) return;
    if (body === undefined) {
      res.writeHead(status, headers).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/vnd.oracle.resource+json; type=error', ...headers }).end(JSON.stringify(body));
  }

  /** Checks the OAuth 1.0a header: known consumer and token, HMAC-SHA256 over the base string, fresh nonce. */
  private verifyOAuth(req: IncomingMessage): string | null {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('OAuth ')) return 'missing OAuth authorization';
    const params: Record<string, string> = {};
    HEADER_PARAM.lastIndex = 6;
    for (let match = HEADER_PARAM.exec(header); match; match = HEADER_PARAM.exec(header)) params[match[1]!] = decodeURIComponent(match[2]!);
    if (params.realm !== CREDENTIALS.accountId) return 'wrong realm';
    if (params.oauth_consumer_key !== CREDENTIALS.consumerKey || params.oauth_token !== CREDENTIALS.tokenId) return 'unknown consumer or token';
    if (params.oauth_signature_method !== 'HMAC-SHA256') return 'signature method must be HMAC-SHA256';
    if (Math.abs(Number(params.oauth_timestamp) * 1000 - Date.now()) > 5 * 60_000) return 'timestamp out of range';
    const nonce = params.oauth_nonce ?? '';
    if (!nonce) return 'missing nonce';
    const [path = '', query = ''] = (req.url ?? '').split('?');
    // Every oauth_* parameter but the signature, and the query's: encoded, sorted by key then value.
    const signed: Array<[string, string]> = [];
    for (const key in params) if (key.startsWith('oauth_') && key !== 'oauth_signature') signed.push([percentEncode(key), percentEncode(params[key]!)]);
    for (const pair of query ? query.split('&') : []) {
      const [k = '', v = ''] = pair.split('=');
      signed.push([percentEncode(decodeURIComponent(k)), percentEncode(decodeURIComponent(v))]);
    }
    signed.sort(byKeyThenValue);
    let paramString = '';
    for (const [k, v] of signed) paramString += `${paramString ? '&' : ''}${k}=${v}`;
    const baseString = `${req.method!.toUpperCase()}&${percentEncode(`http://${req.headers.host}${path}`)}&${percentEncode(paramString)}`;
    const expected = createHmac('sha256', SIGNING_KEY).update(baseString).digest();
    const given = Buffer.from(params.oauth_signature ?? '', 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid signature';
    if (this.nonces.has(nonce)) return 'nonce already used';
    this.nonces.add(nonce);
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // In flight from arrival until the answer is sent, as the account's concurrency governance counts.
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let counted = true;
    const done = () => {
      if (counted) this.inFlight--;
      counted = false;
    };
    res.once('finish', done);
    res.once('close', done);

    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');

    const authProblem = this.verifyOAuth(req);
    if (authProblem) return this.send(res, req, 401, errorBody(401, 'Unauthorized', `Invalid login attempt: ${authProblem}.`, 'INVALID_LOGIN'));

    if (this.inFlight > this.concurrencyLimit) {
      this.rejected429++;
      return this.send(res, req, 429, errorBody(429, 'Too Many Requests', 'Request blocked by the concurrency limit of the account.', 'CONCURRENCY_LIMIT_EXCEEDED'), { 'retry-after': String(this.retryAfterSeconds) });
    }
    const path = (req.url ?? '').split('?')[0]!;
    const isSalesOrderWrite = req.method !== 'GET' && path.includes('/salesOrder');
    if (isSalesOrderWrite) this.salesOrderWritesStarted++;
    const delay = this.delayMs + (isSalesOrderWrite ? this.salesOrderDelayMs : 0);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (this.failNextCount > 0) {
      this.failNextCount--;
      return this.send(res, req, this.failStatus, errorBody(this.failStatus, 'Service Unavailable', 'An unexpected error occurred.', 'UNEXPECTED_ERROR'));
    }
    const hold = this.hold;
    if (hold && req.method !== 'GET' && path.split('/')[5] === hold.type) {
      this.hold = null;
      hold.arrive();
      await hold.released;
    }
    this.route(req, res, path, raw);
  }

  private route(req: IncomingMessage, res: ServerResponse, path: string, raw: string): void {
    const replace = new Set(new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('replace')?.split(',') ?? []);
    const match = /^\/services\/rest\/record\/v1\/([A-Za-z]+)(?:\/(eid:)?([^/]+))?$/.exec(path);
    if (!match) return this.send(res, req, 404, errorBody(404, 'Not Found', `Unknown resource ${path}.`, 'NONEXISTENT_ID'));
    const [, type = '', eid, key] = match;
    const externalId = eid && key ? decodeURIComponent(key) : null;
    const existing = externalId ? this.find(type, externalId) : key ? this.records.get(`${type}/${key}`) : undefined;

    if (req.method === 'GET') {
      if (!existing) return this.send(res, req, 404, errorBody(404, 'Not Found', 'The record instance does not exist.', 'NONEXISTENT_ID'));
      this.requests.push({ method: 'GET', path, status: 200 });
      res.writeHead(200, { 'content-type': 'application/vnd.oracle.resource+json; type=singular-resource' }).end(JSON.stringify({ id: existing.id, externalId: existing.externalId, ...existing.body }));
      return;
    }
    if (req.method === 'PATCH') return this.patch(req, res, type, existing, raw);
    if (req.method !== 'POST' && req.method !== 'PUT') return this.send(res, req, 405, errorBody(405, 'Method Not Allowed', 'Method not allowed.', 'INVALID_METHOD'));
    if (!(req.headers['content-type'] ?? '').includes('application/json')) {
      return this.send(res, req, 415, errorBody(415, 'Unsupported Media Type', 'Content-Type must be application/json.', 'INVALID_CONTENT_TYPE'));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return this.send(res, req, 400, errorBody(400, 'Bad Request', 'Invalid JSON in the request body.', 'INVALID_CONTENT'));
    }
    if (this.validationFailure) return this.send(res, req, 400, errorBody(400, 'Bad Request', this.validationFailure, 'USER_ERROR'));
    const problem = this.validate(type, body);
    if (problem) return this.send(res, req, 400, errorBody(400, 'Bad Request', problem, 'USER_ERROR'));

    let record = existing;
    if (req.method === 'PUT' && !externalId) return this.send(res, req, 405, errorBody(405, 'Method Not Allowed', 'Use PATCH to update by internal id.', 'INVALID_METHOD'));
    if (!record) {
      record = { id: String(this.nextId++), externalId: externalId ?? (typeof body.externalId === 'string' ? body.externalId : null), type, body, writes: 0 };
      this.records.set(`${type}/${record.id}`, record);
      if (record.externalId) this.byExternalId.set(`${type}/${record.externalId}`, record.id);
    } else {
      record.body = { ...record.body, ...body, ...mergeSublists(record.body, body, replace) };
    }
    if (type === 'salesOrder' || type === 'creditMemo') record.body = { ...record.body, ...this.totals(record.body) };
    record.writes++;
    if (this.lostAnswers && this.lostAnswers.type === type && this.lostAnswers.count > 0) {
      this.lostAnswers.count--;
      this.requests.push({ method: req.method ?? '', path, status: 0 });
      req.socket.destroy();
      return;
    }
    const headers: Record<string, string> = req.method === 'POST' || this.locationOnUpsert ? { location: `${this.url}/services/rest/record/v1/${type}/${record.id}` } : {};
    this.send(res, req, 204, undefined, headers);
  }

  /**
   * `PATCH …/<type>/<id>` or `…/eid:<id>`: the fields sent replace the record's (NetSuite's partial
   * update); an `externalId` among them re-keys the record, refused when another record of the type has it.
   */
  private patch(req: IncomingMessage, res: ServerResponse, type: string, existing: StubRecord | undefined, raw: string): void {
    if (!existing) return this.send(res, req, 404, errorBody(404, 'Not Found', 'The record instance does not exist.', 'NONEXISTENT_ID'));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return this.send(res, req, 400, errorBody(400, 'Bad Request', 'Invalid JSON in the request body.', 'INVALID_CONTENT'));
    }
    if (this.validationFailure) return this.send(res, req, 400, errorBody(400, 'Bad Request', this.validationFailure, 'USER_ERROR'));
    const { externalId, ...fields } = body;
    if (typeof externalId === 'string' && externalId !== existing.externalId) {
      if (this.find(type, externalId)) return this.send(res, req, 400, errorBody(400, 'Bad Request', 'A record with this external ID already exists.', 'DUP_RCRD'));
      if (existing.externalId) this.byExternalId.delete(`${type}/${existing.externalId}`);
      existing.externalId = externalId;
      this.byExternalId.set(`${type}/${externalId}`, existing.id);
    }
    existing.body = { ...existing.body, ...fields };
    existing.writes++;
    this.send(res, req, 204);
  }

  /** NetSuite's read-only totals of a transaction: its own tax on the lines not sent `isTaxable: false`, and the total. */
  private totals(body: Record<string, unknown>): { taxTotal: number; total: number } {
    const items = (body.item as { items?: Array<{ quantity?: number; rate?: number; isTaxable?: boolean; isClosed?: boolean }> } | undefined)?.items ?? [];
    const round = (n: number) => Math.round(n * 100) / 100;
    const open = items.filter((l) => l.isClosed !== true);
    const amount = (l: { quantity?: number; rate?: number }) => (l.quantity ?? 0) * (l.rate ?? 0);
    const taxTotal = round(open.filter((l) => l.isTaxable !== false).reduce((s, l) => s + amount(l) * this.accountTaxRate, 0));
    const lines = open.reduce((s, l) => s + amount(l), 0);
    const shipping = typeof body.shippingCost === 'number' ? body.shippingCost : 0;
    const discount = typeof body.discountRate === 'number' ? Math.abs(body.discountRate) : 0;
    return { taxTotal, total: round(lines - discount + shipping + taxTotal) };
  }

  private validate(type: string, body: Record<string, unknown>): string | null {
    if (type === 'customerRefund') {
      const customer = body.customer as { id?: unknown } | undefined;
      if (!customer?.id || !this.records.has(`customer/${String(customer.id)}`)) return 'Invalid customer reference key.';
      const applied = (body.apply as { items?: Array<{ doc?: { id?: unknown }; amount?: unknown }> } | undefined)?.items ?? [];
      if (!applied.length) return 'You must apply the refund to at least one credit.';
      for (const line of applied) {
        if (!line.doc?.id || !this.records.has(`creditMemo/${String(line.doc.id)}`)) return 'Invalid doc reference key.';
        if (typeof line.amount !== 'number' || line.amount <= 0) return 'Invalid amount.';
      }
    }
    if (type === 'journalEntry') {
      const lines = (body.line as { items?: Array<{ account?: { externalId?: unknown }; debit?: unknown; credit?: unknown }> } | undefined)?.items ?? [];
      if (lines.length < 2) return 'You must enter at least two lines.';
      let debit = 0;
      let credit = 0;
      for (const line of lines) {
        if (typeof line.account?.externalId !== 'string') return 'Invalid account reference key.';
        debit += typeof line.debit === 'number' ? line.debit : 0;
        credit += typeof line.credit === 'number' ? line.credit : 0;
      }
      if (debit <= 0 || Math.abs(debit - credit) > 0.001) return 'The transaction is not balanced.';
    }
    if (type === 'customer' && typeof body.email !== 'string') return 'Please enter a value for Email.';
    if (type === 'salesOrder' || type === 'creditMemo') {
      const entity = body.entity as { id?: unknown } | undefined;
      if (!entity?.id || !this.records.has(`customer/${String(entity.id)}`)) return 'Invalid entity reference key.';
      const items = (body.item as { items?: Array<{ item?: { externalId?: unknown }; quantity?: unknown; rate?: unknown; isClosed?: unknown; isTaxable?: unknown }> } | undefined)?.items;
      if (!items?.length) return 'You must enter at least one line item for this transaction.';
      for (const line of items) {
        if (typeof line.item?.externalId !== 'string' || !line.item.externalId) return 'Invalid item reference key.';
        if (typeof line.quantity !== 'number' || line.quantity <= 0) return 'Invalid quantity.';
        if (line.isClosed !== undefined && typeof line.isClosed !== 'boolean') return 'Invalid value for the field isClosed.';
        if (line.isTaxable !== undefined && typeof line.isTaxable !== 'boolean') return 'Invalid value for the field isTaxable.';
        if (type === 'creditMemo' && (typeof line.rate !== 'number' || line.rate < 0)) return 'Invalid rate.';
      }
      if (type === 'creditMemo' && items.reduce((sum, l) => sum + (l.rate as number) * (l.quantity as number), 0) <= 0) return 'The total must be greater than zero.';
    }
    return null;
  }
}

type Sublist = { items: unknown[] };
const isSublist = (value: unknown): value is Sublist => typeof value === 'object' && value !== null && Array.isArray((value as Sublist).items);

/**
 * The sublists of an update as NetSuite leaves them: the lines sent replace the record's lines when the
 * sublist is named in `replace`; otherwise they are added after the lines already there (lines without
 * keys: the stub has no keyed sublists).
 */
function mergeSublists(existing: Record<string, unknown>, update: Record<string, unknown>, replace: ReadonlySet<string>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(update)) {
    const before = existing[name];
    if (!isSublist(value) || replace.has(name) || !isSublist(before)) continue;
    merged[name] = { ...value, items: [...before.items, ...value.items] };
  }
  return merged;
}

export async function startNetSuiteStub(options: NetSuiteStubOptions = {}): Promise<NetSuiteStub> {
  return new NetSuiteStub(options).start();
}
