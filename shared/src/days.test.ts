import { describe, expect, it } from 'vitest';
import { formatUtcDay } from './days';

describe('formatUtcDay', () => {
  it('writes the UTC day, whatever the time of day', () => {
    expect(formatUtcDay(new Date('2026-03-05T00:00:00Z'))).toBe('March 5, 2026');
    expect(formatUtcDay(new Date('2026-03-05T23:59:59Z'))).toBe('March 5, 2026');
    expect(formatUtcDay(new Date('not a date'))).toBe('');
  });
});
