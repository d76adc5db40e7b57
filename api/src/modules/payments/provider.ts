/**
 * Which payment gateway this process uses, decided once from configuration:
 * - Authorize.Net when its credentials are set (or PAYMENTS_MODE=authorizenet);
 * - otherwise, outside production, the local sandbox (tokeniser and gateway served by this API);
 * - in production with no credentials, none: status says `configured: false` and checkout refuses.
 */
import type { PaymentsStatus } from '@nh/shared/contracts/checkout';
import {
  ACCEPT_JS_URLS,
  AuthorizeNetGateway,
  LocalSandboxGateway,
  SANDBOX_API_LOGIN_ID,
  SANDBOX_CLIENT_KEY,
  type PaymentGateway,
} from '@nh/server/payments/index';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';

export const SANDBOX_SCRIPT_PATH = '/api/payments/sandbox/accept.js';

export interface Payments {
  gateway: PaymentGateway | null;
  /** Set when the local sandbox is in use (its tokeniser is served by our API). */
  sandbox: LocalSandboxGateway | null;
  status: PaymentsStatus;
}

export const paymentsFor = perApp(createPayments);

function createPayments(ctx: AppContext): Payments {
  const c = ctx.config;
  const hasCredentials = Boolean(c.AUTHNET_API_LOGIN_ID && c.AUTHNET_TRANSACTION_KEY);
  const mode =
    c.PAYMENTS_MODE === 'auto' ? (hasCredentials ? 'authorizenet' : c.isProduction ? 'disabled' : 'local-sandbox') : c.PAYMENTS_MODE;

  if (mode === 'authorizenet' && hasCredentials && c.AUTHNET_PUBLIC_CLIENT_KEY) {
    const gateway = new AuthorizeNetGateway({
      apiLoginId: c.AUTHNET_API_LOGIN_ID!,
      transactionKey: c.AUTHNET_TRANSACTION_KEY!,
      environment: c.AUTHNET_ENV,
      endpoint: c.AUTHNET_ENDPOINT,
      timeoutMs: c.AUTHNET_TIMEOUT_MS,
    });
    return {
      gateway,
      sandbox: null,
      status: {
        configured: true,
        environment: c.AUTHNET_ENV,
        publicClientKey: c.AUTHNET_PUBLIC_CLIENT_KEY,
        apiLoginID: c.AUTHNET_API_LOGIN_ID!,
        acceptJsUrl: ACCEPT_JS_URLS[c.AUTHNET_ENV],
        localSandbox: false,
      },
    };
  }
  if (mode === 'local-sandbox' && !c.isProduction) {
    const sandbox = new LocalSandboxGateway({ redis: ctx.redis, keyPrefix: c.QUEUE_PREFIX, latencyMs: c.PAYMENTS_SANDBOX_LATENCY_MS });
    return {
      gateway: sandbox,
      sandbox,
      status: {
        configured: true,
        environment: 'sandbox',
        publicClientKey: SANDBOX_CLIENT_KEY,
        apiLoginID: SANDBOX_API_LOGIN_ID,
        acceptJsUrl: SANDBOX_SCRIPT_PATH,
        localSandbox: true,
      },
    };
  }
  if (mode !== 'disabled') ctx.log.warn({ mode }, 'card payments are not configured (Authorize.Net needs AUTHNET_API_LOGIN_ID, AUTHNET_TRANSACTION_KEY and AUTHNET_PUBLIC_CLIENT_KEY)');
  return {
    gateway: null,
    sandbox: null,
    status: {
      configured: false,
      environment: c.AUTHNET_ENV,
      publicClientKey: null,
      apiLoginID: null,
      acceptJsUrl: null,
      localSandbox: false,
    },
  };
}
