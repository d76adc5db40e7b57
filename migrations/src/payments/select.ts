/**
 * Which payment gateway a process uses, and the variables that decide it: one shape and one rule for
 * the API (checkout, subscribing, resuming a plan) and the workers (renewals, payment reconciliation),
 * so a renewal reaches the gateway that stored the card, and a lookup the gateway that took the charge.
 *
 * - Authorize.Net when its credentials are set (or PAYMENTS_MODE=authorizenet);
 * - otherwise, outside production, the local sandbox (its tokens and stored profiles live in Redis
 *   under QUEUE_PREFIX, shared by the API and the workers);
 * - in production with no credentials, none (the caller says what then refuses); in production the
 *   local sandbox is never used, not even with PAYMENTS_MODE=local-sandbox (production-safety.md);
 * - AUTHNET_ENV must be stated in production when Authorize.Net is used (`requireAuthnetEnvInProduction`).
 */
import { z } from 'zod';
import { ConfigError, optionalString } from '../runtime/env';
import type { RedisClient } from '../runtime/redis';
import { AuthorizeNetGateway } from './authorizenet';
import { LocalSandboxGateway } from './sandbox';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The payment variables, spread into each process's config schema. */
export const paymentsEnvShape = {
  /** Card payments (Authorize.Net). With no credentials outside production, the local sandbox is used. */
  AUTHNET_API_LOGIN_ID: optionalString(),
  AUTHNET_TRANSACTION_KEY: optionalString(),
  /** Accept.js's public key: the browser tokenises cards with it (the API needs it, the workers do not). */
  AUTHNET_PUBLIC_CLIENT_KEY: optionalString(),
  AUTHNET_ENV: z.preprocess(emptyToUndefined, z.enum(['sandbox', 'production']).default('sandbox')),
  /** Overrides the Authorize.Net API URL (a local stub in tests). */
  AUTHNET_ENDPOINT: optionalString(),
  /** Our own limit on one Authorize.Net call (the SDK's default is 120 s). */
  AUTHNET_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** auto: Authorize.Net when credentials are set, else the local sandbox (never in production). */
  PAYMENTS_MODE: z.preprocess(emptyToUndefined, z.enum(['auto', 'authorizenet', 'local-sandbox', 'disabled']).default('auto')),
  /** Artificial latency of the local sandbox gateway per charge (benchmarks). */
  PAYMENTS_SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** Minutes after which a local sandbox charge counts as settled: before, a refund is a void (docs/decisions/refunds.md). */
  PAYMENTS_SANDBOX_SETTLE_MINUTES: z.coerce.number().int().min(0).max(7 * 24 * 60).default(10),
};

/**
 * AUTHNET_ENV must be stated in production whenever Authorize.Net is used: its default (sandbox) sends a
 * production shop's live keys to the sandbox endpoint, where every charge fails (or a sandbox key
 * "works" and no money moves). Checked on the raw variables, before the default applies.
 */
export function requireAuthnetEnvInProduction(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV !== 'production' || env.AUTHNET_ENV) return;
  const credentials = Boolean(env.AUTHNET_API_LOGIN_ID && env.AUTHNET_TRANSACTION_KEY);
  if (credentials || env.PAYMENTS_MODE === 'authorizenet') {
    throw new ConfigError(
      'Invalid configuration: AUTHNET_ENV: is required when NODE_ENV=production and Authorize.Net is used (sandbox or production: the account the keys belong to)',
    );
  }
}

/** The parsed payment variables. */
export type PaymentsEnv = z.infer<z.ZodObject<typeof paymentsEnvShape>>;

export interface PaymentGatewayOptions {
  /** NODE_ENV=production: never the local sandbox. */
  production: boolean;
  /** The local sandbox's Redis and key prefix (QUEUE_PREFIX). */
  redis: RedisClient;
  keyPrefix: string;
  /** Authorize.Net only with AUTHNET_PUBLIC_CLIENT_KEY too (a process whose browser pages tokenise cards). */
  requirePublicClientKey?: boolean;
}

/** The gateway chosen, or none with the mode that was asked for (`disabled`: on purpose). */
export type PaymentGatewayChoice =
  | { kind: 'authorizenet'; gateway: AuthorizeNetGateway }
  | { kind: 'local-sandbox'; gateway: LocalSandboxGateway }
  | { kind: 'none'; gateway: null; mode: 'authorizenet' | 'local-sandbox' | 'disabled' };

/** The one gateway factory: the mode rule above, applied to the process's parsed variables. */
export function createPaymentGateway(env: PaymentsEnv, options: PaymentGatewayOptions): PaymentGatewayChoice {
  const hasCredentials = Boolean(env.AUTHNET_API_LOGIN_ID && env.AUTHNET_TRANSACTION_KEY);
  const mode = env.PAYMENTS_MODE === 'auto' ? (hasCredentials ? 'authorizenet' : options.production ? 'disabled' : 'local-sandbox') : env.PAYMENTS_MODE;

  if (mode === 'authorizenet' && hasCredentials && (!options.requirePublicClientKey || env.AUTHNET_PUBLIC_CLIENT_KEY)) {
    const gateway = new AuthorizeNetGateway({
      apiLoginId: env.AUTHNET_API_LOGIN_ID!,
      transactionKey: env.AUTHNET_TRANSACTION_KEY!,
      environment: env.AUTHNET_ENV,
      endpoint: env.AUTHNET_ENDPOINT,
      timeoutMs: env.AUTHNET_TIMEOUT_MS,
    });
    return { kind: 'authorizenet', gateway };
  }
  if (mode === 'local-sandbox' && !options.production) {
    const gateway = new LocalSandboxGateway({ redis: options.redis, keyPrefix: options.keyPrefix, latencyMs: env.PAYMENTS_SANDBOX_LATENCY_MS, settleAfterMinutes: env.PAYMENTS_SANDBOX_SETTLE_MINUTES });
    return { kind: 'local-sandbox', gateway };
  }
  return { kind: 'none', gateway: null, mode };
}
