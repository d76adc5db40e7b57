import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RedisClient } from '../runtime/redis';
import { createPaymentGateway, paymentsEnvShape } from './select';

const parse = (env: Record<string, string>) => z.object(paymentsEnvShape).parse(env);
// The sandbox only talks to Redis when it tokenises or charges; choosing it needs none.
const options = { production: false, redis: {} as RedisClient, keyPrefix: 'test' };
const credentials = { AUTHNET_API_LOGIN_ID: 'login', AUTHNET_TRANSACTION_KEY: 'key' };

describe('the payment gateway factory (api and workers alike)', () => {
  it('auto: Authorize.Net with credentials, else the local sandbox outside production, else none', () => {
    expect(createPaymentGateway(parse(credentials), options).kind).toBe('authorizenet');
    expect(createPaymentGateway(parse({}), options).kind).toBe('local-sandbox');
    expect(createPaymentGateway(parse({}), { ...options, production: true })).toEqual({ kind: 'none', gateway: null, mode: 'disabled' });
  });

  it('a process that tokenises in the browser needs the public client key too', () => {
    expect(createPaymentGateway(parse(credentials), { ...options, requirePublicClientKey: true })).toEqual({ kind: 'none', gateway: null, mode: 'authorizenet' });
    expect(createPaymentGateway(parse({ ...credentials, AUTHNET_PUBLIC_CLIENT_KEY: 'public' }), { ...options, requirePublicClientKey: true }).kind).toBe('authorizenet');
  });

  it('PAYMENTS_MODE forces a choice, but never the sandbox in production', () => {
    expect(createPaymentGateway(parse({ ...credentials, PAYMENTS_MODE: 'local-sandbox' }), options).kind).toBe('local-sandbox');
    expect(createPaymentGateway(parse({ ...credentials, PAYMENTS_MODE: 'disabled' }), options)).toEqual({ kind: 'none', gateway: null, mode: 'disabled' });
    expect(createPaymentGateway(parse({ PAYMENTS_MODE: 'local-sandbox' }), { ...options, production: true })).toEqual({ kind: 'none', gateway: null, mode: 'local-sandbox' });
    expect(createPaymentGateway(parse({ PAYMENTS_MODE: 'authorizenet' }), options)).toEqual({ kind: 'none', gateway: null, mode: 'authorizenet' });
  });

  it('one shape: empty values count as unset, timeouts and latency are bounded', () => {
    expect(parse({ AUTHNET_ENV: '', PAYMENTS_MODE: '', AUTHNET_API_LOGIN_ID: '' })).toMatchObject({ AUTHNET_ENV: 'sandbox', PAYMENTS_MODE: 'auto', AUTHNET_API_LOGIN_ID: undefined, AUTHNET_TIMEOUT_MS: 30_000 });
    expect(() => parse({ AUTHNET_TIMEOUT_MS: '200000' })).toThrow();
    expect(() => parse({ PAYMENTS_SANDBOX_LATENCY_MS: '20000' })).toThrow();
  });
});
