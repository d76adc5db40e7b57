import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';

describe('formatCount', () => {
  it('groups digits as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12847, 1234567, -4321, 1000000000]) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
  it('drops a fraction', () => {
    expect(formatCount(1234.9)).toBe('1,234');
  });
});
