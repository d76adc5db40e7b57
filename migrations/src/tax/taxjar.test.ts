import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Logger } from '../observability/logger';
import { taxProviderFallbacks } from '../observability/metrics';
import { ConfigError } from '../runtime/env';
import { freePort } from '../testing/free-port';
import { startTaxjarStub, type TaxjarStub } from '../testing/taxjar-stub';
import { createTaxCalculator, priceForDestination, taxEnvShape, type TaxCalculator, type TaxRequest } from './index';
import { tableTax } from './table';
import { quoteFromAnswer, taxjarTax } from './taxjar';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-tax-taxjar-'));
const RATES = path.join(dir, 'rates.csv');
fs.writeFileSync(RATES, 'state,zip,rate\nCA,,0.0725\nNY,,0.04\nNY,10001,0.08875\nTX,,0.0625\n');

const fakeLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as Logger & Record<'info' | 'warn' | 'error', ReturnType<typeof vi.fn>>;
const envOf = (vars: Record<string, string>) => z.object(taxEnvShape).parse(vars);
const fallbacks = async (reason: string) => (await taxProviderFallbacks.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

/** A starter kit (2 × $22.49) and a refill (3 lines costing $20.00 after a cent of discount) with its own product tax code. */
const REFILL_CODE = '40030';
const order = (state: string | null, zip: string | null): TaxRequest => ({
  to: { state, zip, city: 'New York', address: '350 5th Ave' },
  lines: [
    { productId: 1, quantity: 2, amount: 4498, taxCode: null },
    { productId: 2, quantity: 3, amount: 2000, taxCode: REFILL_CODE },
  ],
  shipping: 999,
});

let stub: TaxjarStub;
let log: ReturnType<typeof fakeLog>;
let tax: TaxCalculator;

beforeAll(async () => {
  stub = await startTaxjarStub();
});
afterAll(async () => {
  await stub.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  stub.rates = { NY: 0.08875, CA: 0.0725, TX: 0.0625 };
  stub.taxCodeRates = { [REFILL_CODE]: 0.01 };
  stub.freightTaxable = new Set(['NY']);
  stub.delayMs = 0;
  stub.mode = 'ok';
  stub.requests.length = 0;
  log = fakeLog();
  tax = createTaxCalculator(envOf(stub.env({ TAX_RATES_FILE: RATES, TAX_PROVIDER_TIMEOUT_MS: '300' })), { log });
});

describe('TaxJar where the shop has nexus', () => {
  it("takes each line's tax (the refill's product tax code at its own rate) and the tax on shipping", async () => {
    const quote = await tax.quote(order('NY', '10001-2062'));
    // 44.98 × 8.875% = 3.99; 20.00 × 1% = 0.20; shipping 9.99 × 8.875% = 0.89 (New York taxes freight).
    expect(quote).toEqual({ lineTaxes: [399, 20], shippingTax: 89, source: 'taxjar' });

    expect(stub.requests).toHaveLength(1);
    const [sent] = stub.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v2/taxes', authorization: `Bearer ${stub.apiKey}` });
    expect(sent!.body).toEqual({
      from_country: 'US',
      from_state: 'OR',
      from_zip: '97201',
      to_country: 'US',
      to_state: 'NY',
      to_zip: '10001',
      to_city: 'New York',
      to_street: '350 5th Ave',
      amount: 64.98,
      shipping: 9.99,
      nexus_addresses: ['NY', 'CA', 'TX'].map((state) => ({ id: `nexus-${state}`, country: 'US', state })),
      line_items: [
        { id: '0', quantity: 2, unit_price: 22.49 },
        { id: '1', quantity: 3, unit_price: 6.67, discount: 0.01, product_tax_code: REFILL_CODE },
      ],
    });
  });

  it('a state that does not tax freight: no shipping tax; a state without the product code override: one rate', async () => {
    const quote = await tax.quote(order('TX', '78701'));
    // 44.98 × 6.25% = 2.81125 → 2.81; the refill 20.00 × 1% = 0.20.
    expect(quote).toEqual({ lineTaxes: [281, 20], shippingTax: 0, source: 'taxjar' });
    stub.taxCodeRates = {};
    expect((await tax.quote(order('TX', '78701'))).lineTaxes).toEqual([281, 125]);
  });

  it("priced carts: every line sent adds up to its net amount, and the order's tax is exactly its parts", async () => {
    const lines = [
      { productId: 1, price: 2499, quantity: 2 },
      { productId: 2, price: 667, quantity: 3, taxCode: REFILL_CODE },
      { productId: 3, price: 1299, quantity: 7 },
    ];
    const pricing = await priceForDestination(tax, lines, { state: 'NY', zip: '10001', shippingMethod: 'express', promo: { discountType: 'percentage', discountValue: 15 } });
    expect(pricing.taxSource).toBe('taxjar');
    const sent = stub.requests.at(-1)!.body as { line_items: Array<{ quantity: number; unit_price: number; discount?: number }> };
    const cents = (d: number | undefined) => Math.round((d ?? 0) * 100);
    expect(sent.line_items.map((l) => cents(l.unit_price) * l.quantity - cents(l.discount))).toEqual(pricing.lineNet);
    expect(pricing.tax).toBe(pricing.lineTaxes.reduce((s, t) => s + t, 0) + pricing.shippingTax);
    expect(pricing.shippingTax).toBe(Math.round(pricing.shipping * 0.08875));
    expect(pricing.total).toBe(pricing.discountedSubtotal + pricing.shipping + pricing.tax);
  });
});

describe('without a call to TaxJar', () => {
  it('a destination outside the nexus states owes nothing (no-nexus)', async () => {
    expect(await tax.quote(order('FL', '33101'))).toEqual({ lineTaxes: [0, 0], shippingTax: 0, source: 'no-nexus' });
    expect(await tax.quote(order('or', '97201'))).toMatchObject({ source: 'no-nexus' });
    expect(stub.requests).toHaveLength(0);
  });

  it("an address without its ZIP or state yet: the table's estimate", async () => {
    // New York without a ZIP: the state's 4% of $64.98 = 2.5992 → 2.60.
    const quote = await tax.quote(order('NY', null));
    expect(quote.source).toBe('table');
    expect(quote.lineTaxes.reduce((s, t) => s + t, 0)).toBe(260);
    expect(await tax.quote(order(null, null))).toEqual({ lineTaxes: [0, 0], shippingTax: 0, source: 'table' });
    expect(stub.requests).toHaveLength(0);
  });
});

describe('TaxJar slow or down: the table answers (table-fallback), never an error', () => {
  // New York 10001 in the table: 8.875% of $64.98 = 5.767 → 5.77, no tax on shipping.
  const TABLE_FALLBACK = { shippingTax: 0, source: 'table-fallback' };
  const sum = (taxes: number[]) => taxes.reduce((s, t) => s + t, 0);

  it('a timeout answers within about the timeout', async () => {
    stub.delayMs = 3000;
    const before = await fallbacks('timeout');
    const started = performance.now();
    const quote = await tax.quote(order('NY', '10001'));
    const took = performance.now() - started;
    expect(quote).toMatchObject(TABLE_FALLBACK);
    expect(sum(quote.lineTaxes)).toBe(577);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(800);
    expect(await fallbacks('timeout')).toBe(before + 1);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: 'taxjar', reason: 'timeout' }), expect.stringMatching(/answered from the rate table/));
  });

  it.each([
    ['http-500', 'server-error'],
    ['bad-json', 'bad-answer'],
  ] as const)('%s → %s', async (mode, reason) => {
    stub.mode = mode;
    const before = await fallbacks(reason);
    const quote = await tax.quote(order('NY', '10001'));
    expect(quote).toMatchObject(TABLE_FALLBACK);
    expect(sum(quote.lineTaxes)).toBe(577);
    expect(await fallbacks(reason)).toBe(before + 1);
    expect(stub.requests).toHaveLength(1);
  });

  it('a refused token (401) → client-error', async () => {
    const wrong = createTaxCalculator(envOf(stub.env({ TAX_RATES_FILE: RATES, TAXJAR_API_KEY: 'not-the-token' })), { log });
    const before = await fallbacks('client-error');
    expect(await wrong.quote(order('CA', '94103'))).toMatchObject(TABLE_FALLBACK);
    expect(await fallbacks('client-error')).toBe(before + 1);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.stringMatching(/TaxJar answered 401 \(Unauthorized/) }), expect.any(String));
  });

  it('nothing listening → network', async () => {
    const port = await freePort();
    const down = createTaxCalculator(envOf(stub.env({ TAX_RATES_FILE: RATES, TAXJAR_API_URL: `http://127.0.0.1:${port}/` })), { log });
    const before = await fallbacks('network');
    const quote = await down.quote(order('TX', '78701'));
    expect(quote).toMatchObject(TABLE_FALLBACK);
    expect(sum(quote.lineTaxes)).toBe(406); // 6.25% of $64.98 = 4.06125
    expect(await fallbacks('network')).toBe(before + 1);
  });

  it('warns at most once a minute, saying how many fell back in between', async () => {
    let now = 1_000_000;
    const fallback = tableTax(RATES, { log });
    const calc = taxjarTax({ apiKey: stub.apiKey, apiUrl: stub.url, timeoutMs: 300, from: { state: 'OR', zip: '97201' }, nexusStates: ['NY'], fallback, log, now: () => now });
    stub.mode = 'http-500';
    for (let i = 0; i < 3; i++) await calc.quote(order('NY', '10001'));
    expect(log.warn).toHaveBeenCalledTimes(1);
    now += 60_000;
    await calc.quote(order('NY', '10001'));
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenLastCalledWith(expect.objectContaining({ reason: 'server-error', fallbacksSinceLastWarning: 2 }), expect.any(String));
  });

  it("the fallback table reloads through the TaxJar calculator", async () => {
    expect(await tax.reload!()).toBe(true);
  });
});

describe("reading TaxJar's answer", () => {
  const request = order('NY', '10001');
  it('no breakdown and nothing to collect: zeros', () => {
    expect(quoteFromAnswer({ tax: { amount_to_collect: 0, has_nexus: false } }, request)).toEqual({ lineTaxes: [0, 0], shippingTax: 0, source: 'taxjar' });
  });
  it('decimal strings are read to the cent', () => {
    const answer = { tax: { amount_to_collect: '1.50', breakdown: { line_items: [{ id: 0, tax_collectable: '1.2' }, { id: '1', tax_collectable: 0.3 }], shipping: { tax_collectable: '0' } } } };
    expect(quoteFromAnswer(answer, request)).toEqual({ lineTaxes: [120, 30], shippingTax: 0, source: 'taxjar' });
  });
  it('a taxed order missing a line, or without amounts, is a bad answer', () => {
    expect(() => quoteFromAnswer({ tax: { amount_to_collect: 4, breakdown: { line_items: [{ id: '0', tax_collectable: 4 }] } } }, request)).toThrow(/no tax for line 1/);
    expect(() => quoteFromAnswer({ tax: {} }, request)).toThrow(/lacks what we read/);
    expect(() => quoteFromAnswer('<html>', request)).toThrow(/lacks what we read/);
  });
});

describe('taxjar mode configuration', () => {
  const base = () => stub.env({ TAX_RATES_FILE: RATES });
  it.each([
    ['no API key', { TAXJAR_API_KEY: '' }, /^Invalid configuration: TAXJAR_API_KEY is required when TAX_MODE=taxjar/],
    ['no nexus states', { TAX_NEXUS_STATES: '' }, /^Invalid configuration: TAX_NEXUS_STATES is required when TAX_MODE=taxjar/],
    ['a bad nexus state', { TAX_NEXUS_STATES: 'CA, New York' }, /^Invalid configuration: TAX_NEXUS_STATES: "NEW YORK" is not a two-letter US state code/],
    ['no rates file for the fallback', { TAX_RATES_FILE: '' }, /^Invalid configuration: TAX_RATES_FILE is required when TAX_MODE=taxjar \(the fallback/],
    ['a bad API URL', { TAXJAR_API_URL: 'api.taxjar.com' }, /^Invalid configuration: TAXJAR_API_URL: "api.taxjar.com" is not a URL/],
    ['a bad ship-from ZIP', { TAX_SHIP_FROM_ZIP: 'PDX-1' }, /^Invalid configuration: TAX_SHIP_FROM_ZIP/],
  ])('%s', (_, overrides, message) => {
    expect(() => createTaxCalculator(envOf({ ...base(), ...overrides }), { log })).toThrow(ConfigError);
    expect(() => createTaxCalculator(envOf({ ...base(), ...overrides }), { log })).toThrow(message);
  });

  it('a URL with /v2 or a trailing slash reaches the same route', async () => {
    const calc = createTaxCalculator(envOf(stub.env({ TAX_RATES_FILE: RATES, TAXJAR_API_URL: `${stub.url}/v2/` })), { log });
    expect((await calc.quote(order('CA', '94103'))).source).toBe('taxjar');
    expect(stub.requests.at(-1)!.path).toBe('/v2/taxes');
  });
});
