import { describe, expect, it } from 'vitest';
import { centsToDecimal, formatCents, formatPrice, parseCents, percentOf, toCents } from './money';

describe('money', () => {
  it('parses decimal strings and numbers into exact cents', () => {
    expect(toCents('12.99')).toBe(1299);
    expect(toCents('12.9')).toBe(1290);
    expect(toCents('12')).toBe(1200);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents('-3.05')).toBe(-305);
  });
  it('refuses what is not an amount', () => {
    expect(() => toCents('12.999')).toThrow(RangeError);
    expect(() => toCents('abc')).toThrow(RangeError);
    expect(parseCents('')).toBeNull();
    expect(parseCents(Number.NaN)).toBeNull();
    expect(parseCents(undefined)).toBeNull();
  });
  it('formats cents as two-decimal strings and dollars', () => {
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(123456)).toBe('1234.56');
    expect(centsToDecimal(-250)).toBe('-2.50');
    expect(formatCents(999)).toBe('$9.99');
    expect(formatPrice('24.5')).toBe('$24.50');
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });
  it('rounds percentages half away from zero', () => {
    expect(percentOf(1000, 1500)).toBe(150);
    expect(percentOf(333, 1500)).toBe(50); // 49.95 → 50
    expect(percentOf(1, 5000)).toBe(1); // 0.5 → 1
    expect(percentOf(-1, 5000)).toBe(-1);
  });
});
