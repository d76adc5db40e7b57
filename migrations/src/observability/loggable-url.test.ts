import { describe, expect, it } from 'vitest';
import { loggablePath, loggableQuery, loggableUrl } from './loggable-url';

const SECRET = 'Zm9vYmFyYmF6cXV4c2VjcmV0dG9rZW4tdmFsdWUtMTIzNDU';

describe('loggableUrl', () => {
  it.each([
    ['/account/reset-password?token=' + SECRET, '/account/reset-password?token=[redacted]'],
    ['/admin/invite?token=' + SECRET + '&utm_source=email', '/admin/invite?token=[redacted]&utm_source=email'],
    ['/orders/view?utm=a&token=' + SECRET, '/orders/view?utm=a&token=[redacted]'],
    ['/x?Token=' + SECRET, '/x?Token=[redacted]'],
    ['/x?to%6Ben=' + SECRET, '/x?to%6Ben=[redacted]'],
    [
      '/x?access_token=' + SECRET + '&api_key=' + SECRET + '&password=' + SECRET + '&sig=' + SECRET,
      '/x?access_token=[redacted]&api_key=[redacted]&password=[redacted]&sig=[redacted]',
    ],
    ['/x?token=' + SECRET + '&token=' + SECRET, '/x?token=[redacted]&token=[redacted]'],
    ['/api/newsletter/unsubscribe/' + SECRET, '/api/newsletter/unsubscribe/[redacted]'],
    ['/API/Newsletter/UNSUBSCRIBE/' + SECRET + '?x=1', '/API/Newsletter/UNSUBSCRIBE/[redacted]?x=1'],
    ['/unsubscribe/' + SECRET, '/unsubscribe/[redacted]'],
    ['/api/subscriptions/update-card/' + SECRET, '/api/subscriptions/update-card/[redacted]'],
    ['/subscriptions/update-card/' + SECRET + '?x=1', '/subscriptions/update-card/[redacted]?x=1'],
    ['/api/email-actions/' + SECRET, '/api/email-actions/[redacted]'],
    ['/email-actions/' + SECRET, '/email-actions/[redacted]'],
    ['/account/confirm-email/' + SECRET, '/account/confirm-email/[redacted]'],
    ['/api/account/email-change/' + SECRET + '?x=1', '/api/account/email-change/[redacted]?x=1'],
    ['https://shop.example/orders/view#token=' + SECRET, 'https://shop.example/orders/view#token=[redacted]'],
  ])('%s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
    expect(loggableUrl(url)).not.toContain(SECRET);
  });

  it('leaves a URL without secrets exactly as it was', () => {
    for (const url of [
      '/api/products?category=kitchen&sort=price&page=2',
      '/shop?q=dish%20pods',
      '/api/orders/lookup',
      '/?',
      '/x?flag',
      '/x?a=1&&b=2',
    ])
      expect(loggableUrl(url)).toBe(url);
  });

  it('has its parts on their own: a path and a query string', () => {
    expect(loggablePath(`/api/newsletter/unsubscribe/${SECRET}`)).toBe('/api/newsletter/unsubscribe/[redacted]');
    expect(loggableQuery(`token=${SECRET}&page=2`)).toBe('token=[redacted]&page=2');
  });
});
