import { describe, expect, it } from 'vitest';
import { formatImpactNumber } from './format-impact';

describe('formatImpactNumber', () => {
  it('shows millions with one decimal and a plus', () => {
    expect(formatImpactNumber(1_200_000)).toBe('1.2M+');
    expect(formatImpactNumber(1_000_000)).toBe('1.0M+');
    expect(formatImpactNumber(1_299_999)).toBe('1.2M+');
    expect(formatImpactNumber(15_000_000)).toBe('15.0M+');
  });
  it('shows thousands as whole K with a plus', () => {
    expect(formatImpactNumber(50_000)).toBe('50K+');
    expect(formatImpactNumber(1_000)).toBe('1K+');
    expect(formatImpactNumber(999_999)).toBe('999K+');
  });
  it('shows smaller figures plainly', () => {
    expect(formatImpactNumber(999)).toBe('999');
    expect(formatImpactNumber(0)).toBe('0');
    expect(formatImpactNumber(Number.NaN)).toBe('0');
  });
});
