/**
 * The payment gateway renewals charge and the payment reconciliation asks: the one factory of
 * @nh/server (payments/select.ts) that the API uses too, on the same variables, so a renewal reaches the
 * gateway that stored the profile, and a lookup the gateway that took the charge. Workers never tokenise
 * a card, so the public client key is not required here. Every call is timed (`instrumentGateway`).
 */
import { createPaymentGateway as selectPaymentGateway, instrumentGateway, type PaymentGateway } from '@nh/server/payments';
import type { Logger } from '@nh/server/observability/logger';
import type { RedisClient } from '@nh/server/runtime/redis';
import type { WorkerConfig } from './lib/config';

export function createPaymentGateway(config: WorkerConfig, redis: RedisClient, log: Logger): PaymentGateway | null {
  const choice = selectPaymentGateway(config, { production: config.NODE_ENV === 'production', redis, keyPrefix: config.QUEUE_PREFIX });
  if (choice.kind === 'none' && choice.mode !== 'disabled') {
    log.warn({ mode: choice.mode }, 'card payments are not configured (Authorize.Net needs AUTHNET_API_LOGIN_ID and AUTHNET_TRANSACTION_KEY); renewals will not charge and payments will not be reconciled');
  }
  return choice.gateway && instrumentGateway(choice.gateway);
}
