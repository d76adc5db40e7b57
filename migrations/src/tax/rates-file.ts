/**
 * The merchant's rate table (TAX_MODE=table, and taxjar's fallback): a CSV file named by TAX_RATES_FILE
 * with the columns `state,zip,rate`, e.g.
 *
 *   state,zip,rate
 *   CA,,0.0725        ← the state's rate (empty zip)
 *   CA,90210,0.1025   ← a ZIP code's combined rate
 *
 * Rates are decimal fractions (0.0725 = 7.25 %) between 0 and 0.2 with at most six decimal places, kept
 * as integer parts per million (0.06625 → 66250) so tax math stays in integers. Blank lines and lines
 * starting with `#` are ignored; a cell may be wrapped in double quotes (spreadsheet exports); the
 * header's columns may come in any order and other columns are ignored.
 *
 * A malformed file is one line naming TAX_RATES_FILE, the row (its line number in the file, the header
 * being row 1) and the row's text, thrown as a ConfigError: the process refuses to start with it, and a
 * reload keeps the rates it had.
 */
import fs from 'node:fs';
import { shippingZoneOf } from '@nh/shared';
import { ConfigError } from '../runtime/env';

/** Parts per million: 1_000_000 = 100 %. */
export type Ppm = number;
export const PPM = 1_000_000;
/** The highest rate a row may hold (20 %): anything above is a typo (7.25 written for 0.0725). */
export const MAX_RATE_PPM: Ppm = 200_000;

export interface StateRates {
  /** The state's row with an empty zip, or null when the file has none. */
  stateRate: Ppm | null;
  /** The ZIP codes' own rows (five digits). */
  zips: ReadonlyMap<string, Ppm>;
  /** The highest of the state's rates (its own and its ZIPs'): the fallback that never under-collects. */
  highest: Ppm;
}

export interface RateTable {
  /** By two-letter code, upper case. */
  states: ReadonlyMap<string, StateRates>;
  /** How many rate rows the file had. */
  rows: number;
}

const COLUMNS = ['state', 'zip', 'rate'] as const;
const RATE = /^(\d*)(?:\.(\d*))?$/;
const RATE_RULE = 'rate must be a decimal fraction from 0 to 0.2 with at most 6 decimal places (e.g. 0.0725 for 7.25%)';

/** A rate's text as parts per million, or null when it is not a decimal in [0, 0.2] with ≤ 6 places. */
export function parseRatePpm(text: string): Ppm | null {
  const match = RATE.exec(text);
  if (!match || text === '' || text === '.') return null;
  const [, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  if (/[1-9]/.test(fraction.slice(6))) return null;
  const ppm = Number(whole || '0') * PPM + Number(fraction.slice(0, 6).padEnd(6, '0'));
  return ppm <= MAX_RATE_PPM ? ppm : null;
}

/** 66250 → "0.06625" (for logs and messages). */
export const ppmToDecimal = (ppm: Ppm): string => (ppm / PPM).toFixed(6).replace(/0+$/, '').replace(/\.$/, '.0');

const cellsOf = (line: string): string[] =>
  line.split(',').map((cell) => {
    const trimmed = cell.trim();
    return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).trim() : trimmed;
  });

const quoted = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text);

/**
 * Parses the file's text into a rate table; throws a ConfigError naming TAX_RATES_FILE (`file` as the
 * merchant wrote it) and the first bad row.
 */
export function parseRatesCsv(text: string, file: string): RateTable {
  const problem = (detail: string) => new ConfigError(`Invalid configuration: TAX_RATES_FILE (${file}) ${detail}`);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let header: Record<(typeof COLUMNS)[number], number> | null = null;
  let width = 0;
  const states = new Map<string, { stateRate: Ppm | null; zips: Map<string, Ppm>; highest: Ppm }>();
  const seen = new Map<string, number>();
  let rows = 0;

  for (const [index, line] of lines.entries()) {
    const row = index + 1;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const cells = cellsOf(line);
    const bad = (why: string) => problem(`row ${row} ${quoted(line)}: ${why}`);
    if (!header) {
      const names = cells.map((c) => c.toLowerCase());
      const [state, zip, rate] = COLUMNS.map((column) => names.indexOf(column));
      if (state === undefined || zip === undefined || rate === undefined || state < 0 || zip < 0 || rate < 0) {
        throw bad('the first row must be the header state,zip,rate');
      }
      header = { state, zip, rate };
      width = cells.length;
      continue;
    }
    if (cells.length !== width) throw bad(`expected ${width} cells like the header, found ${cells.length}`);
    const state = cells[header.state]!.toUpperCase();
    const zip = cells[header.zip]!;
    if (!/^[A-Z]{2}$/.test(state) || !shippingZoneOf(state)) throw bad('state must be a two-letter US state, territory or military code (e.g. CA)');
    if (zip !== '' && !/^\d{5}$/.test(zip)) throw bad("zip must be 5 digits, or empty for the state's rate");
    const ppm = parseRatePpm(cells[header.rate]!);
    if (ppm === null) throw bad(RATE_RULE);
    const key = `${state}:${zip}`;
    const before = seen.get(key);
    if (before !== undefined) throw bad(`duplicates row ${before} (${zip === '' ? `${state}'s state rate` : `${state} ${zip}`} given twice)`);
    seen.set(key, row);
    const entry = states.get(state) ?? { stateRate: null, zips: new Map<string, Ppm>(), highest: 0 };
    if (zip === '') entry.stateRate = ppm;
    else entry.zips.set(zip, ppm);
    entry.highest = Math.max(entry.highest, ppm);
    states.set(state, entry);
    rows++;
  }

  if (!header) throw problem('is empty: the first row must be the header state,zip,rate');
  if (rows === 0) throw problem('has a header but no rates');
  return { states, rows };
}

const cannotRead = (file: string, error: unknown) => {
  const err = error as NodeJS.ErrnoException;
  return new ConfigError(`Invalid configuration: TAX_RATES_FILE (${file}) cannot be read (${err.code ?? err.message})`);
};

/** Reads and parses the file; an unreadable file is a ConfigError naming TAX_RATES_FILE too. */
export function readRatesFile(file: string): RateTable {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw cannotRead(file, error);
  }
  return parseRatesCsv(text, file);
}

/** Like readRatesFile, without blocking the event loop (a reload while the process serves). */
export async function readRatesFileAsync(file: string): Promise<RateTable> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    throw cannotRead(file, error);
  }
  return parseRatesCsv(text, file);
}
