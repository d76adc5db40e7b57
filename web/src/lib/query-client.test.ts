import { describe, expect, it } from 'vitest';
import { urlFromQueryKey } from './query-client';

describe('urlFromQueryKey', () => {
  it('joins the endpoint and its parts with "/" and object parts as query parameters', () => {
    expect(urlFromQueryKey(['/api/products', 12, 'reviews'])).toBe('/api/products/12/reviews');
    expect(urlFromQueryKey(['/api/admin/orders', { page: 2, status: null, q: 'a b' }])).toBe('/api/admin/orders?page=2&q=a+b');
  });

  it('keeps a part that came from the address bar one path segment (no climbing to another endpoint)', () => {
    expect(urlFromQueryKey(['/api/products', '../promo-codes/validate/WELCOME10'])).toBe('/api/products/..%2Fpromo-codes%2Fvalidate%2FWELCOME10');
    expect(new URL(urlFromQueryKey(['/api/products', '../promo-codes/x']), 'http://shop.test').pathname).toBe('/api/products/..%2Fpromo-codes%2Fx');
  });
});
