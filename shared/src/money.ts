/**
 * Money is integer cents everywhere in code. The database stores numeric(10,2); the API and the
 * spec's payloads show two-decimal strings. These are the only conversions.
 */

export type Cents = number;

const DECIMAL = /^-?\d+(\.\d{1,2})?$/;

/** Parses "12.99", "12.9", "12" or a number 12.99 into cents; throws on anything else. */
export function toCents(value: string | number): Cents {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  if (!DECIMAL.test(text)) throw new RangeError(`Not a money amount: ${String(value)}`);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** Like toCents but answers null for anything that is not a finite amount. */
export function parseCents(value: unknown): Cents | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  try {
    return toCents(value);
  } catch {
    return null;
  }
}

/** 1299 → "12.99" */
export function centsToDecimal(cents: Cents): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Cents must be an integer: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1299 → "$12.99" */
export function formatCents(cents: Cents): string {
  const text = centsToDecimal(cents);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** Formats a price that may arrive as a string or number: "$12.99". */
export function formatPrice(value: string | number): string {
  const cents = parseCents(value);
  return cents === null ? '' : formatCents(cents);
}

/**
 * Percentage of an amount, rounded half away from zero to the cent (the one rounding rule used for
 * discounts and tax). `bps` is basis points: 1500 = 15%.
 */
export function percentOf(cents: Cents, bps: number): Cents {
  const exact = (cents * bps) / 10_000;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

/** Spreads `amount` over `weights` in proportion, exactly (largest remainder; ties to the earlier line). */
export function spreadCents(amount: Cents, weights: readonly number[]): Cents[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total <= 0 || amount === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / total);
  const parts = exact.map((e) => Math.floor(e));
  let left = amount - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}
