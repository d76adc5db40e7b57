import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Logger } from '../observability/logger';
import { ConfigError } from '../runtime/env';
import { createTaxCalculator, parseRatePpm, parseRatesCsv, rateFor, reloadTaxRatesOnSignal, tableQuote, taxAtPpm, taxEnvShape, type TaxRequest } from './index';
import { tableTax } from './table';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-tax-table-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const writeRates = (text: string): string => {
  const file = path.join(dir, `rates-${++fileNo}.csv`);
  fs.writeFileSync(file, text);
  return file;
};
const fakeLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as Logger & Record<'info' | 'warn' | 'error', ReturnType<typeof vi.fn>>;
const envOf = (vars: Record<string, string>) => z.object(taxEnvShape).parse(vars);

const EXAMPLE = path.resolve(import.meta.dirname, '../../../ops/tax/us-rates.example.csv');
const table = parseRatesCsv(fs.readFileSync(EXAMPLE, 'utf8'), EXAMPLE);

const request = (state: string | null, zip: string | null, amounts: number[] = [4000, 1500], shipping = 999): TaxRequest => ({
  to: { state, zip },
  lines: amounts.map((amount, i) => ({ productId: i + 1, quantity: 1, amount })),
  shipping,
});

describe('the rate table (ops/tax/us-rates.example.csv)', () => {
  // $55.00 of goods over two lines; shipping is never taxed by the table.
  it.each([
    ['Oregon pays no tax', 'OR', '97201', 0, 'state'],
    ['a ZIP with its own combined rate (New York City, 8.875%)', 'NY', '10001', 488, 'zip'],
    ['ZIP+4 reads as its five digits', 'NY', '10001-2062', 488, 'zip'],
    ["a ZIP the file lacks: the state's row (New York, 4%)", 'NY', '12207', 220, 'state'],
    ['New Jersey at 6.625% (the parts-per-million rate, rounded once)', 'NJ', '07030', 364, 'state'],
    ['lower-case state', 'ca', '90210', 523, 'zip'],
    ["no ZIP yet: the state's rate", 'CA', null, 399, 'state'],
    ['a ZIP that is not one: as no ZIP', 'CA', '9021', 399, 'state'],
    ['a state not in the file: nothing collected', 'FL', '33101', 0, 'state-not-in-table'],
    ['no state yet', null, null, 0, 'no-state'],
  ] as const)('%s', (_, state, zip, tax, basis) => {
    expect(rateFor(table, { state, zip }).basis).toBe(basis);
    const quote = tableQuote(table, request(state, zip));
    expect(quote.lineTaxes.reduce((s, t) => s + t, 0)).toBe(tax);
    expect(quote).toMatchObject({ shippingTax: 0, source: 'table' });
  });

  it("a state with ZIP rows and no state row: a missing ZIP pays the state's highest rate (never under-collect)", () => {
    const zipsOnly = parseRatesCsv('state,zip,rate\nIL,60601,0.1025\nIL,62701,0.0975\n', 'zips.csv');
    expect(rateFor(zipsOnly, { state: 'IL', zip: '62701' })).toEqual({ ppm: 97_500, basis: 'zip' });
    expect(rateFor(zipsOnly, { state: 'IL', zip: '61820' })).toEqual({ ppm: 102_500, basis: 'highest-zip-in-state' });
    expect(rateFor(zipsOnly, { state: 'IL', zip: null })).toEqual({ ppm: 102_500, basis: 'highest-zip-in-state' });
  });

  it("rounds the order's tax once and spreads it so the lines sum to it exactly", () => {
    // 3 × $3.33 at 8.875%: each line alone would be 29.55¢ → 30¢ (90¢); the order's 88.7¢ → 89¢.
    const quote = tableQuote(table, request('NY', '10001', [333, 333, 333]));
    expect(quote.lineTaxes).toEqual([30, 30, 29]);
    for (const amounts of [[1], [1999, 1], [12345, 678, 9], [0, 0], []]) {
      const q = tableQuote(table, request('NJ', '08540', amounts));
      expect(q.lineTaxes.reduce((s, t) => s + t, 0)).toBe(taxAtPpm(amounts.reduce((s, a) => s + a, 0), 66_250));
    }
  });

  it('taxAtPpm rounds half away from zero in integers', () => {
    expect(taxAtPpm(1000, 62_500)).toBe(63); // 62.5 → 63
    expect(taxAtPpm(-1000, 62_500)).toBe(-63);
    expect(taxAtPpm(1000, 62_499)).toBe(62);
    expect(taxAtPpm(99_999_999, 200_000)).toBe(20_000_000); // 19,999,999.8
    expect(taxAtPpm(5000, 0)).toBe(0);
  });

  it('reads rates as exact parts per million', () => {
    expect(parseRatePpm('0.06625')).toBe(66_250);
    expect(parseRatePpm('.0725')).toBe(72_500);
    expect(parseRatePpm('0')).toBe(0);
    expect(parseRatePpm('0.2')).toBe(200_000);
    expect(parseRatePpm('0.07250000')).toBe(72_500);
    for (const bad of ['0.2000001', '7.25', '0.0725%', '-0.01', '', '.', 'abc', '0,07', '1e-2', '0.0000001']) expect(parseRatePpm(bad), bad).toBeNull();
  });

  it('accepts a BOM, CRLF, quoted cells, blank and # lines, and columns in another order', () => {
    const t = parseRatesCsv('\uFEFF# exported 2026-11\r\n"rate","state","zip",note\r\n\r\n"0.0725","CA","",base\r\n0.095,CA,90210,Beverly Hills\r\n', 'x.csv');
    expect(t.rows).toBe(2);
    expect(rateFor(t, { state: 'CA', zip: '90210' }).ppm).toBe(95_000);
    expect(rateFor(t, { state: 'CA', zip: '94103' }).ppm).toBe(72_500);
  });
});

describe('a malformed TAX_RATES_FILE stops the start with one line naming it and the bad row', () => {
  it.each([
    ['no header', 'CA,,0.0725\n', /row 1 "CA,,0.0725": the first row must be the header state,zip,rate/],
    ['an empty file', '\n', /is empty: the first row must be the header/],
    ['a header without rates', 'state,zip,rate\n', /has a header but no rates/],
    ['a bad state', 'state,zip,rate\nCA,,0.0725\nXX,,0.05\n', /row 3 "XX,,0.05": state must be a two-letter US state/],
    ['a state spelt out', 'state,zip,rate\nCalifornia,,0.0725\n', /row 2 "California,,0.0725": state must be/],
    ['a 4-digit zip', 'state,zip,rate\nNJ,7030,0.06625\n', /row 2 "NJ,7030,0.06625": zip must be 5 digits/],
    ['a ZIP+4', 'state,zip,rate\nNY,10001-2062,0.08875\n', /row 2 "NY,10001-2062,0.08875": zip must be 5 digits/],
    ['a percentage', 'state,zip,rate\nCA,,7.25\n', /row 2 "CA,,7.25": rate must be a decimal fraction from 0 to 0.2/],
    ['a rate that is not a number', 'state,zip,rate\nCA,,seven\n', /row 2 "CA,,seven": rate must be/],
    ['a missing cell', 'state,zip,rate\nCA,0.0725\n', /row 2 "CA,0.0725": expected 3 cells like the header, found 2/],
    ['a duplicate state rate', 'state,zip,rate\nCA,,0.0725\nTX,,0.0625\nCA,,0.075\n', /row 4 "CA,,0.075": duplicates row 2/],
    ['a duplicate ZIP', 'state,zip,rate\nNY,10001,0.08875\n\nNY,10001,0.08875\n', /row 4 "NY,10001,0.08875": duplicates row 2 \(NY 10001 given twice\)/],
  ])('%s', (_, text, message) => {
    const file = writeRates(text);
    let error: unknown;
    try {
      createTaxCalculator(envOf({ TAX_MODE: 'table', TAX_RATES_FILE: file }), { log: fakeLog() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text1 = (error as Error).message;
    expect(text1).toMatch(new RegExp(`^Invalid configuration: TAX_RATES_FILE \\(${file.replace(/[.\\/]/g, '\\$&')}\\) `));
    expect(text1).toMatch(message);
    expect(text1).not.toContain('\n');
  });

  it('an unreadable file', () => {
    const missing = path.join(dir, 'nope.csv');
    expect(() => createTaxCalculator(envOf({ TAX_MODE: 'table', TAX_RATES_FILE: missing }), { log: fakeLog() })).toThrow(
      new ConfigError(`Invalid configuration: TAX_RATES_FILE (${missing}) cannot be read (ENOENT)`),
    );
  });

  it('table mode without TAX_RATES_FILE', () => {
    expect(() => createTaxCalculator(envOf({ TAX_MODE: 'table' }), { log: fakeLog() })).toThrow(/^Invalid configuration: TAX_RATES_FILE is required when TAX_MODE=table/);
  });

  it('flat stays the default', () => {
    expect(createTaxCalculator(envOf({}), { log: fakeLog() }).mode).toBe('flat');
    expect(createTaxCalculator(envOf({ TAX_MODE: '' }), { log: fakeLog() }).mode).toBe('flat');
  });
});

describe('reloading the table', () => {
  it('takes a good file, keeps the old rates on a bad one (logged), and answers SIGHUP', async () => {
    const file = writeRates('state,zip,rate\nCA,,0.0725\n');
    const log = fakeLog();
    const calculator = createTaxCalculator(envOf({ TAX_MODE: 'table', TAX_RATES_FILE: file }), { log });
    const tax = async () => (await calculator.quote(request('CA', '94103', [10_000]))).lineTaxes[0];
    expect(await tax()).toBe(725);

    fs.writeFileSync(file, 'state,zip,rate\nCA,,0.0725\nCA,94103,0.08625\n');
    expect(await calculator.reload!()).toBe(true);
    expect(await tax()).toBe(863);
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ file, rows: 2 }), 'tax rates reloaded');

    fs.writeFileSync(file, 'state,zip,rate\nCA,,0.0725\nCA,94103,8.625\n');
    expect(await calculator.reload!()).toBe(false);
    expect(await tax()).toBe(863);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ file, err: expect.stringMatching(/TAX_RATES_FILE .* row 3 "CA,94103,8.625": rate must be/) }), expect.stringMatching(/previous rates stay/));

    fs.rmSync(file);
    expect(await calculator.reload!()).toBe(false);
    expect(await tax()).toBe(863);

    fs.writeFileSync(file, 'state,zip,rate\nCA,,0.0725\nCA,94103,0.09\n');
    const listeners = process.listenerCount('SIGHUP');
    const stop = reloadTaxRatesOnSignal(calculator, log);
    try {
      process.emit('SIGHUP', 'SIGHUP');
      await expect.poll(tax).toBe(900);
    } finally {
      stop();
    }
    expect(process.listenerCount('SIGHUP')).toBe(listeners);
  });

  it('flat has nothing to reload and does not listen', () => {
    const listeners = process.listenerCount('SIGHUP');
    const stop = reloadTaxRatesOnSignal(createTaxCalculator(envOf({}), { log: fakeLog() }), fakeLog());
    expect(process.listenerCount('SIGHUP')).toBe(listeners);
    stop();
  });

  it('quoteNow answers the same synchronously', () => {
    const calculator = tableTax(writeRates('state,zip,rate\nWA,,0.065\n'), { log: fakeLog() });
    expect(calculator.quoteNow(request('WA', '98101', [2000]))).toEqual({ lineTaxes: [130], shippingTax: 0, source: 'table' });
  });
});
