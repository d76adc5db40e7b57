import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/query-client';
import { failureMessage } from './failure-message';

const apiError = (status: number, body: string) => new ApiError(status, `${status}: ${body}`, body);

describe("the 'Payment failed' toast text", () => {
  it('prefers the provider response message, then error, then message', () => {
    expect(failureMessage(apiError(402, JSON.stringify({ message: 'x', responseMessage: 'This transaction has been declined.' })))).toBe('This transaction has been declined.');
    expect(failureMessage(apiError(500, JSON.stringify({ error: 'Gateway down', message: 'x' })))).toBe('Gateway down');
    expect(failureMessage(apiError(409, JSON.stringify({ message: 'The price of "Surfy" is now $9.99.' })))).toBe('The price of "Surfy" is now $9.99.');
  });

  it('falls back to the raw message, then the generic sentence', () => {
    expect(failureMessage(apiError(502, 'Bad Gateway'))).toBe('502: Bad Gateway');
    expect(failureMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(failureMessage(null)).toBe('Please check your payment information and try again.');
  });
});
