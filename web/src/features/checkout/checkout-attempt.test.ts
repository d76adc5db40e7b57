import { describe, expect, it } from 'vitest';
import { isNetworkFailure, newAttempt, reusableAttempt } from './checkout-attempt';

describe('checkout attempts', () => {
  it('reuses the pending attempt (same key, same body) only for the same form and cart', () => {
    const attempt = newAttempt('form-a', { amount: '10.00' }, () => 'key-1');
    expect(reusableAttempt(attempt, 'form-a')).toBe(attempt);
    expect(reusableAttempt(attempt, 'form-b')).toBeNull();
    expect(reusableAttempt(null, 'form-a')).toBeNull();
  });

  it('makes a fresh random key per attempt', () => {
    expect(newAttempt('x', {}).key).not.toBe(newAttempt('x', {}).key);
  });

  it('tells a lost request from an answered one', () => {
    expect(isNetworkFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(new Error('402: declined'))).toBe(false);
  });
});
