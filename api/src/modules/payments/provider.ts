/**
 * The payment gateway of this API process, chosen once by the composition root from configuration by
 * the factory the workers use too (@nh/server payments/select.ts), and what GET /api/payments/status
 * tells the browser about it. The API tokenises cards in the browser, so Authorize.Net needs its public
 * client key as well; in production with no credentials there is no gateway: status says
 * `configured: false` and every call that sends a card refuses. Every gateway call is timed
 * (`instrumentGateway`); the local sandbox's own handle (`sandbox`: its tokeniser, its test hooks) is not.
 */
import type { PaymentsStatus } from '@nh/shared/contracts/checkout';
import { ACCEPT_JS_URLS, createPaymentGateway, instrumentGateway, SANDBOX_API_LOGIN_ID, SANDBOX_CLIENT_KEY, type LocalSandboxGateway, type PaymentGateway } from '@nh/server/payments';
import type { AppContext } from '../../lib/context';

export const SANDBOX_SCRIPT_PATH = '/api/payments/sandbox/accept.js';

export interface Payments {
  gateway: PaymentGateway | null;
  /** Set when the local sandbox is in use (its tokeniser is served by our API). */
  sandbox: LocalSandboxGateway | null;
  status: PaymentsStatus;
}

export function createPayments({ config: c, redis, log }: Pick<AppContext, 'config' | 'redis' | 'log'>): Payments {
  const choice = createPaymentGateway(c, { production: c.isProduction, redis, keyPrefix: c.QUEUE_PREFIX, requirePublicClientKey: true });
  switch (choice.kind) {
    case 'authorizenet':
      return {
        gateway: instrumentGateway(choice.gateway),
        sandbox: null,
        status: {
          configured: true,
          environment: c.AUTHNET_ENV,
          publicClientKey: c.AUTHNET_PUBLIC_CLIENT_KEY!,
          apiLoginID: c.AUTHNET_API_LOGIN_ID!,
          acceptJsUrl: ACCEPT_JS_URLS[c.AUTHNET_ENV],
          localSandbox: false,
        },
      };
    case 'local-sandbox':
      return {
        gateway: instrumentGateway(choice.gateway),
        sandbox: choice.gateway,
        status: {
          configured: true,
          environment: 'sandbox',
          publicClientKey: SANDBOX_CLIENT_KEY,
          apiLoginID: SANDBOX_API_LOGIN_ID,
          acceptJsUrl: SANDBOX_SCRIPT_PATH,
          localSandbox: true,
        },
      };
    case 'none':
      if (choice.mode !== 'disabled') {
        log.warn({ mode: choice.mode }, 'card payments are not configured (Authorize.Net needs AUTHNET_API_LOGIN_ID, AUTHNET_TRANSACTION_KEY and AUTHNET_PUBLIC_CLIENT_KEY)');
      }
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
}
