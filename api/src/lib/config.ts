import path from 'node:path';
import { z } from 'zod';
import { toCents } from '@nh/shared/money';
import { DEFAULT_PLAN_CADENCE_MONTHS, planCadenceMonthsSchema } from '@nh/shared/contracts/subscriptions';
import { baseEnvShape, KEY_PREFIX, KEY_PREFIX_RULE, loadEnv, optionalString, repoRootOf, requireClusterReadyRedis, requireSiteUrlInProduction } from '@nh/server/runtime/env';
import { paymentsEnvShape, requireAuthnetEnvInProduction } from '@nh/server/payments';
import { taxEnvShape } from '@nh/server/tax';
import { s3SettingsOf, storageEnvShape } from '@nh/server/storage';

export const REPO_ROOT = repoRootOf(import.meta.url);

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me';

/** SHUTDOWN_DELAY_MS in production when unset: two probes of a load balancer checking every 2 s, and a margin. */
export const DEFAULT_PRODUCTION_SHUTDOWN_DELAY_MS = 5000;

const schema = z
  .object({
    ...baseEnvShape,
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: z.string().default('0.0.0.0'),
    /**
     * On SIGTERM: how long the API keeps serving (readiness 503, responses `Connection: close`) before it
     * closes its listener, so the load balancer's probe sees the 503 and stops sending first (server.ts).
     * Unset: 5 s in production, 0 elsewhere (Ctrl-C stops a developer's API at once).
     */
    SHUTDOWN_DELAY_MS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(120_000).optional()),
    /** On SIGTERM, after the delay: how long requests in flight may take before the process exits anyway. */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
    SESSION_SECRET: optionalString(),
    /** The key of the emailed sign-in codes' HMAC (@nh/server queries/sign-in-codes.ts; the mail worker needs it too). */
    SIGN_IN_CODE_PEPPER: optionalString(),
    /** Built SPA folder served with history fallback. */
    WEB_DIST: z.string().default(path.join(REPO_ROOT, 'web/dist')),
    /** Product pictures served at /api/public/{filename}. */
    PUBLIC_DIR: z.string().default(path.join(REPO_ROOT, 'api/public')),
    /** Staff's product pictures, served at /uploads/... (when STORAGE_URL is unset: the local folder). */
    UPLOADS_DIR: z.string().default(path.join(REPO_ROOT, '.local/uploads')),
    /** Photos sent with damage claims, private: read by staff through the API only (when STORAGE_URL is unset: the local folder; else the bucket's `claims/` prefix). */
    CLAIM_PHOTOS_DIR: z.string().default(path.join(REPO_ROOT, '.local/claim-photos')),
    /** Where pictures and export files live: the local folders or an S3 bucket (@nh/server storage/config.ts, shared with the workers). */
    ...storageEnvShape(REPO_ROOT),
    /** Seconds a catalogue response may be reused from the in-process cache. */
    CATALOG_CACHE_SECONDS: z.coerce.number().min(0).default(5),
    /**
     * After a person (shopper or staff) changes something through the API, how long their reads go to
     * the primary rather than DATABASE_READ_URL's replica (lib/read-your-writes.ts). Longer than the
     * replica's usual lag; 0 turns it off.
     */
    READ_YOUR_WRITES_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
    TRUST_PROXY: z.preprocess((v) => v === 'true' || v === '1', z.boolean()).default(false),
    /**
     * Origins besides the API's own host from which pages may send requests that change state
     * (comma-separated, e.g. https://www.example.com); SHOP_SITE_URL's origin is always allowed.
     */
    ALLOWED_ORIGINS: z.preprocess(
      (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
      z.array(z.string().url('must be a comma-separated list of origins such as https://shop.example.com')).default([]),
    ),
    /**
     * Redis key prefix of the abuse limits' counters (every API process shares them); `<QUEUE_PREFIX>:rl`
     * by default, so under QUEUE_PREFIX's hash tag. Each counter is one key, so any prefix works on a cluster.
     */
    RATE_LIMIT_PREFIX: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(KEY_PREFIX, KEY_PREFIX_RULE).optional()),
    /**
     * Failed sign-ins allowed per 15 minutes on one account from one client address (then 429); also the
     * account-wide count from which answers to browsers new to the account wait, and its holder is emailed.
     */
    LOGIN_FAILURES_PER_15_MIN: z.coerce.number().int().min(1).default(10),
    /** Failed sign-ins allowed per 15 minutes from one client address, whatever the accounts (then 429). */
    LOGIN_ADDRESS_FAILURES_PER_15_MIN: z.coerce.number().int().min(1).default(20),
    /** Refused promo codes (validation and checkout together) allowed per client address per 15 minutes. */
    PROMO_REFUSALS_PER_15_MIN: z.coerce.number().int().min(1).default(10),
    /**
     * The cadences Subscribe & Save offers, in months between deliveries (comma-separated, sorted, unique:
     * "1,2,3"): checkout, the product page (GET /api/subscriptions/cadences) and plan changes accept only these.
     */
    PLAN_CADENCE_MONTHS: planCadenceMonthsSchema.default([...DEFAULT_PLAN_CADENCE_MONTHS]),
    /** The cancel dialog's save offer for "it costs too much": percent off the next delivery, once per plan in 12 months (0: not offered). */
    CANCEL_SAVE_DISCOUNT_PERCENT: z.coerce.number().int().min(0).max(50).default(15),
    /** Store credit (issue 23): the most a support agent may give in one grant, in dollars ("25" or "25.00"); owners and managers any amount. */
    SUPPORT_CREDIT_LIMIT: z
      .string()
      .trim()
      .regex(/^\d{1,6}(\.\d{1,2})?$/, 'must be an amount in dollars such as 25 or 25.00')
      .default('25.00')
      .transform((v) => toCents(v)),
    /**
     * Store credit (issue 23): days a goodwill grant lasts (what is left of it then expires, by the daily
     * maintenance job); 0 = grants never expire. Refunds to credit never expire, whatever this says (the
     * customer's own money; docs/decisions/store-credit.md, "Expiry"). Applies to grants made from now on.
     */
    STORE_CREDIT_EXPIRY_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
    /** Card payments: the gateway's variables, shared with the workers (@nh/server payments/select.ts). */
    ...paymentsEnvShape,
    /** Sales tax by destination (issue 25): the API's and the workers' one rule (@nh/server tax). */
    ...taxEnvShape,
    /** Declined or failed payments allowed per client address per 15 minutes (card-testing guard); 0 = no limit. */
    PAYMENT_FAILURES_PER_15_MIN: z.coerce.number().int().min(0).default(10),
    /** Declined or failed payments allowed per signed-in shopper per 15 minutes, from any address; 0 = no limit. */
    PAYMENT_FAILURES_PER_ACCOUNT_PER_15_MIN: z.coerce.number().int().min(0).default(10),
    /** Refused new cards allowed per subscription plan per 15 minutes (resume with a new card, change of card); 0 = no limit. */
    PAYMENT_FAILURES_PER_PLAN_PER_15_MIN: z.coerce.number().int().min(0).default(5),
    /**
     * When set, GET /metrics on the public port answers Prometheus with `Authorization: Bearer <token>`
     * (without it the public /metrics is an unknown API route; METRICS_PORT needs no token).
     */
    METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16, 'must be at least 16 characters').optional()),
  })
  .superRefine((env, ctx) => {
    requireSiteUrlInProduction(env, ctx);
    requireClusterReadyRedis(env, ctx);
    if (env.NODE_ENV !== 'production') return;
    if (!env.SESSION_SECRET) ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required when NODE_ENV=production' });
    if (!env.SIGN_IN_CODE_PEPPER) ctx.addIssue({ code: 'custom', path: ['SIGN_IN_CODE_PEPPER'], message: 'is required when NODE_ENV=production' });
  });

export type ApiConfig = ReturnType<typeof loadApiConfig>;

export function loadApiConfig(env: NodeJS.ProcessEnv = process.env) {
  requireAuthnetEnvInProduction(env);
  const parsed = loadEnv(schema, env);
  // The S3 settings' cross-variable rule (a credential pair), checked at start like the rest.
  s3SettingsOf(parsed);
  return {
    ...parsed,
    UPLOADS_DIR: path.resolve(parsed.UPLOADS_DIR),
    EXPORTS_DIR: path.resolve(parsed.EXPORTS_DIR),
    SESSION_SECRET: parsed.SESSION_SECRET ?? DEV_SESSION_SECRET,
    RATE_LIMIT_PREFIX: parsed.RATE_LIMIT_PREFIX ?? `${parsed.QUEUE_PREFIX}:rl`,
    isProduction: parsed.NODE_ENV === 'production',
    /**
     * Every cookie Secure, whatever the request (lib/cookies.ts): in production when the shop's address
     * is https. A production shop at an http:// address (the compose demo at http://localhost:5000)
     * gets Secure cookies only over https. docs/decisions/production-safety.md, "Secure cookies".
     */
    alwaysSecureCookies: parsed.NODE_ENV === 'production' && parsed.SHOP_SITE_URL?.startsWith('https:') === true,
    SHUTDOWN_DELAY_MS: parsed.SHUTDOWN_DELAY_MS ?? (parsed.NODE_ENV === 'production' ? DEFAULT_PRODUCTION_SHUTDOWN_DELAY_MS : 0),
  };
}
