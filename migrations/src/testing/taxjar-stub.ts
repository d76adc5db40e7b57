/**
 * A local server speaking TaxJar's sales tax API (`POST /v2/taxes`), for the TaxJar calculator's tests
 * (and the API's): it checks the Bearer token (401 in TaxJar's error shape otherwise) and the required
 * fields (to_country, shipping, to_zip for the US: 400), and answers like the real API: `{ tax: {
 * order_total_amount, shipping, taxable_amount, amount_to_collect, rate, has_nexus, freight_taxable,
 * tax_source, jurisdictions, breakdown: { shipping, line_items: [{ id, tax_collectable, combined_tax_rate,
 * … }] } } }` with dollars as numbers.
 *
 * Knobs a test sets on the stub:
 * - `rates`: the combined rate by destination state (absent: 0);
 * - `taxCodeRates`: a rate by product tax code that overrides the state's for lines carrying it (a refill
 *   taxed differently from a starter kit);
 * - `freightTaxable`: states where shipping is taxed at the state's rate;
 * - `delayMs`: how long each answer waits (the calculator's timeout);
 * - `mode`: `ok`, `http-500` (500 with TaxJar's error body) or `bad-json` (200 with a body that is not JSON);
 * - `requests`: every request received (method, path, authorization header, parsed body).
 *
 * Nexus as TaxJar reads it: with `nexus_addresses` in the request, the destination's state must be among
 * them (else has_nexus false and nothing to collect); without, every state counts as nexus.
 * Each line's tax is its taxable amount (unit_price × quantity − discount) × rate, rounded to the cent;
 * amount_to_collect is the sum of the lines' and shipping's.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from './free-port';

export interface TaxjarStubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

export type TaxjarStubMode = 'ok' | 'http-500' | 'bad-json';

export interface TaxjarStub {
  /** The base URL (TAXJAR_API_URL): the client adds /v2. */
  url: string;
  apiKey: string;
  rates: Record<string, number>;
  taxCodeRates: Record<string, number>;
  freightTaxable: Set<string>;
  delayMs: number;
  mode: TaxjarStubMode;
  requests: TaxjarStubRequest[];
  /** The tax settings pointing a process's taxjar mode at this stub (`overrides` on top). */
  env: (overrides?: Record<string, string>) => Record<string, string>;
  close: () => Promise<void>;
}

const cents = (dollars: unknown): number => Math.round(Number(dollars ?? 0) * 100);
const dollars = (c: number): number => Math.round(c) / 100;

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const error = (res: ServerResponse, status: number, title: string, detail: string) => send(res, status, { error: title, detail, status });

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export async function startTaxjarStub(options: { apiKey?: string } = {}): Promise<TaxjarStub> {
  const stub: TaxjarStub = {
    url: '',
    apiKey: options.apiKey ?? 'stub-taxjar-token',
    rates: {},
    taxCodeRates: {},
    freightTaxable: new Set(),
    delayMs: 0,
    mode: 'ok',
    requests: [],
    env: () => ({}),
    close: async () => {},
  };

  const taxFor = (body: Record<string, unknown>) => {
    const state = String(body.to_state ?? '').toUpperCase();
    const nexusAddresses = body.nexus_addresses as Array<{ state?: string }> | undefined;
    const hasNexus = !nexusAddresses || nexusAddresses.some((a) => String(a.state ?? '').toUpperCase() === state);
    const stateRate = stub.rates[state] ?? 0;
    const items = (body.line_items as Array<Record<string, unknown>> | undefined) ?? [];
    const lines = items.map((item) => {
      const taxable = cents(item.unit_price) * Number(item.quantity ?? 1) - cents(item.discount);
      const code = item.product_tax_code as string | undefined;
      const rate = hasNexus ? (code !== undefined && code in stub.taxCodeRates ? stub.taxCodeRates[code]! : stateRate) : 0;
      return { id: String(item.id), taxable, rate, tax: Math.round(taxable * rate) };
    });
    const amount = items.length ? lines.reduce((s, l) => s + l.taxable, 0) : cents(body.amount);
    const shipping = cents(body.shipping);
    const freightTaxable = hasNexus && stub.freightTaxable.has(state);
    const shippingTax = freightTaxable ? Math.round(shipping * stateRate) : 0;
    const lineTax = items.length ? lines.reduce((s, l) => s + l.tax, 0) : hasNexus ? Math.round(amount * stateRate) : 0;
    const toCollect = lineTax + shippingTax;
    const taxable = (hasNexus ? amount : 0) + (freightTaxable ? shipping : 0);
    const tax: Record<string, unknown> = {
      order_total_amount: dollars(amount + shipping),
      shipping: dollars(shipping),
      taxable_amount: dollars(taxable),
      amount_to_collect: dollars(toCollect),
      rate: hasNexus ? stateRate : 0,
      has_nexus: hasNexus,
      freight_taxable: freightTaxable,
      tax_source: hasNexus ? 'destination' : null,
      exemption_type: null,
      jurisdictions: { country: 'US', state, county: 'STUB COUNTY', city: String(body.to_city ?? 'STUB CITY').toUpperCase() },
    };
    if (hasNexus) {
      tax.breakdown = {
        taxable_amount: dollars(taxable),
        tax_collectable: dollars(toCollect),
        combined_tax_rate: stateRate,
        state_taxable_amount: dollars(taxable),
        state_tax_rate: stateRate,
        state_tax_collectable: dollars(toCollect),
        county_taxable_amount: 0,
        county_tax_rate: 0,
        county_tax_collectable: 0,
        city_taxable_amount: 0,
        city_tax_rate: 0,
        city_tax_collectable: 0,
        special_district_taxable_amount: 0,
        special_tax_rate: 0,
        special_district_tax_collectable: 0,
        ...(freightTaxable
          ? {
              shipping: {
                taxable_amount: dollars(shipping),
                tax_collectable: dollars(shippingTax),
                combined_tax_rate: stateRate,
                state_taxable_amount: dollars(shipping),
                state_sales_tax_rate: stateRate,
                state_amount: dollars(shippingTax),
                county_taxable_amount: 0,
                county_tax_rate: 0,
                county_amount: 0,
                city_taxable_amount: 0,
                city_tax_rate: 0,
                city_amount: 0,
                special_taxable_amount: 0,
                special_tax_rate: 0,
                special_district_amount: 0,
              },
            }
          : {}),
        line_items: lines.map((l) => ({
          id: l.id,
          taxable_amount: dollars(l.taxable),
          tax_collectable: dollars(l.tax),
          combined_tax_rate: l.rate,
          state_taxable_amount: dollars(l.taxable),
          state_sales_tax_rate: l.rate,
          state_amount: dollars(l.tax),
          county_taxable_amount: 0,
          county_tax_rate: 0,
          county_amount: 0,
          city_taxable_amount: 0,
          city_tax_rate: 0,
          city_amount: 0,
          special_district_taxable_amount: 0,
          special_tax_rate: 0,
          special_district_amount: 0,
        })),
      };
    }
    return { tax };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    stub.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    if (stub.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, stub.delayMs));
    if (res.destroyed) return;
    if (req.headers.authorization !== `Bearer ${stub.apiKey}`) return error(res, 401, 'Unauthorized', "Not authorized for route 'POST /v2/taxes'");
    if (req.method !== 'POST' || path !== '/v2/taxes') return error(res, 404, 'Not Found', 'No such route');
    if (stub.mode === 'http-500') return error(res, 500, 'Internal Server Error', "We're sorry, but something went wrong");
    if (stub.mode === 'bad-json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('<html>upstream maintenance</html>');
    }
    if (!body) return error(res, 400, 'Bad Request', 'The request body is not JSON');
    if (!body.to_country) return error(res, 400, 'Bad Request', 'to_country is missing');
    if (body.shipping === undefined) return error(res, 400, 'Bad Request', 'shipping is missing');
    if (body.to_country === 'US' && !body.to_zip) return error(res, 400, 'Bad Request', 'to_zip is missing');
    send(res, 200, taxFor(body));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => error(res, 500, 'Internal Server Error', String(err)));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${port}`;
  stub.env = (overrides = {}) => ({
    TAX_MODE: 'taxjar',
    TAXJAR_API_KEY: stub.apiKey,
    TAXJAR_API_URL: stub.url,
    TAX_NEXUS_STATES: Object.keys(stub.rates).join(','),
    ...overrides,
  });
  stub.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return stub;
}
