/**
 * The payment gateway renewals charge and the payment reconciliation asks, chosen from the same
 * variables and by the same rule as the API (api/src/modules/payments/provider.ts), so a renewal
 * reaches the gateway that stored the profile, and a lookup the gateway that took the charge:
 * Authorize.Net when its credentials are set; otherwise, outside production, the local sandbox (its
 * stored profiles live in Redis under QUEUE_PREFIX, as the API keeps them); in production with no
 * credentials, none. Workers never tokenise a card, so the public client key is not needed here.
 */
import { AuthorizeNetGateway, LocalSandboxGateway, type PaymentGateway } from '@nh/server/payments/index';
import type { Logger, Redis } from '@nh/server';
import type { WorkerConfig } from './config';

export function createPaymentGateway(config: WorkerConfig, redis: Redis, log: Logger): PaymentGateway | null {
  const hasCredentials = Boolean(config.AUTHNET_API_LOGIN_ID && config.AUTHNET_TRANSACTION_KEY);
  const isProduction = config.NODE_ENV === 'production';
  const mode = config.PAYMENTS_MODE === 'auto' ? (hasCredentials ? 'authorizenet' : isProduction ? 'disabled' : 'local-sandbox') : config.PAYMENTS_MODE;

  if (mode === 'authorizenet' && hasCredentials) {
    return new AuthorizeNetGateway({
      apiLoginId: config.AUTHNET_API_LOGIN_ID!,
      transactionKey: config.AUTHNET_TRANSACTION_KEY!,
      environment: config.AUTHNET_ENV,
      endpoint: config.AUTHNET_ENDPOINT,
      timeoutMs: config.AUTHNET_TIMEOUT_MS,
    });
  }
  if (mode === 'local-sandbox' && !isProduction) {
    return new LocalSandboxGateway({ redis, keyPrefix: config.QUEUE_PREFIX, latencyMs: config.PAYMENTS_SANDBOX_LATENCY_MS });
  }
  if (mode !== 'disabled') log.warn({ mode }, 'card payments are not configured (Authorize.Net needs AUTHNET_API_LOGIN_ID and AUTHNET_TRANSACTION_KEY); renewals will not charge and payments will not be reconciled');
  return null;
}
