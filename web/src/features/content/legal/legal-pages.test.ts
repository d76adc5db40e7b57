import { describe, expect, it } from 'vitest';
import { findLegalPage, formatLegalDate, LEGAL_PAGE_SLUGS } from './legal-pages';

describe('findLegalPage', () => {
  it.each([
    ['shipping', 'Shipping Policy'],
    ['returns', 'Returns & Refunds'],
    ['privacy', 'Privacy Policy'],
    ['terms', 'Terms of Service'],
  ])('finds %s', (slug, title) => {
    const page = findLegalPage(slug);
    expect(page?.title).toBe(title);
    expect(page?.slug).toBe(slug);
    expect(page?.sections.length).toBeGreaterThan(2);
  });

  it.each([undefined, '', 'cookies', 'Shipping', 'constructor', '__proto__', 'toString'])('answers null for %j', (slug) => {
    expect(findLegalPage(slug)).toBeNull();
  });

  it('covers exactly the four pages of the spec', () => {
    expect(LEGAL_PAGE_SLUGS).toEqual(['shipping', 'returns', 'privacy', 'terms']);
  });
});

describe('legal facts (operations spec §9, shipping figures from the shipping rule)', () => {
  const text = (slug: string) => JSON.stringify(findLegalPage(slug));

  it('states the shipping rates, processing time and cutoff', () => {
    const shipping = text('shipping');
    expect(shipping).toContain('Orders of $50 or less: standard shipping $9.99.');
    expect(shipping).toContain('Orders over $50: free standard shipping.');
    expect(shipping).toContain('Express shipping: $9.99, delivered in 2-3 business days after dispatch.');
    expect(shipping).not.toContain('$35');
    expect(shipping).not.toContain('$9.95');
    expect(shipping).toContain('Orders ship within 1-2 business days.');
    expect(shipping).toContain('2:00 PM EST');
  });

  it('states the return window and refund times', () => {
    const returns = text('returns');
    expect(returns).toContain('within 30 days of delivery');
    expect(returns).toContain('refunds are processed in 5-7 business days');
    expect(returns).toContain('a further 5-10 business days to appear');
  });
});

describe('formatLegalDate', () => {
  it('formats a calendar date in US English', () => {
    expect(formatLegalDate('2025-01-15')).toBe('January 15, 2025');
  });
});
