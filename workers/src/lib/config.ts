import path from 'node:path';
import { z } from 'zod';
import { baseEnvShape, ConfigError, loadEnv, optionalString, repoRootOf, requireClusterReadyRedis, requireSiteUrlInProduction } from '@nh/server/runtime/env';
import { paymentsEnvShape, requireAuthnetEnvInProduction } from '@nh/server/payments';
import { taxEnvShape } from '@nh/server/tax';
import { QUEUE_NAMES, type QueueName } from '@nh/server/runtime/queues';
import { s3SettingsOf, storageEnvShape } from '@nh/server/storage';
import { DEFAULT_PLAN_CADENCE_MONTHS, planCadenceMonthsSchema } from '@nh/shared/contracts/subscriptions';

export const REPO_ROOT = repoRootOf(import.meta.url);

const bool = (fallback: boolean) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(String(v).toLowerCase())), z.boolean());

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

const queueList = z
  .preprocess((v) => (v === undefined || v === '' ? QUEUE_NAMES.join(',') : v), z.string())
  .transform((value, ctx) => {
    const names = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
    for (const name of names) {
      if (!(QUEUE_NAMES as readonly string[]).includes(name)) {
        ctx.addIssue({ code: 'custom', message: `unknown queue "${name}" (known: ${QUEUE_NAMES.join(', ')})` });
      }
    }
    return names as QueueName[];
  });

const schema = z.object({
  ...baseEnvShape,
  /** The cadences offered (months, "1,2,3"), as the API's: the renewal reminder's cadence suggestion picks among them. */
  PLAN_CADENCE_MONTHS: planCadenceMonthsSchema.default([...DEFAULT_PLAN_CADENCE_MONTHS]),
  /** Queues this process consumes (comma list); all by default. */
  WORKER_QUEUES: queueList,
  RELAY_ENABLED: bool(true),
  /** Safety-net sweep of the outbox (LISTEN/NOTIFY wakes the relay at once otherwise). */
  RELAY_SWEEP_MS: int(1000, 50),
  RELAY_BATCH_SIZE: int(500, 1),
  /**
   * How often this process folds the writes noted since into the reports' summary (queries/report-summary.ts;
   * every report read also does, so reports are exact whatever it is). 0 = never: another worker does.
   */
  REPORT_CATCH_UP_MS: int(1000),
  /** After a NOTIFY, how long the relay waits for more rows to move them in one batch (0 = at once). */
  RELAY_COALESCE_MS: int(20, 0),
  /**
   * The nice value the worker process runs at (0–19): above the API's 0, so that on shared cores the
   * shoppers' requests get the CPU first and the jobs the rest (lib/cpu-priority.ts). 0 = the same.
   */
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** How long running jobs get to finish after SIGTERM. */
  SHUTDOWN_GRACE_MS: int(25_000),
  /** Job lock and stalled-job check: a job of a killed worker runs again after about this long. */
  JOB_LOCK_MS: int(30_000, 1000),

  NETSUITE_ACCOUNT_ID: optionalString(),
  NETSUITE_CONSUMER_KEY: optionalString(),
  NETSUITE_CONSUMER_SECRET: optionalString(),
  NETSUITE_TOKEN_ID: optionalString(),
  NETSUITE_TOKEN_SECRET: optionalString(),
  NETSUITE_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  NETSUITE_TIMEOUT_MS: int(15_000, 100),
  /** Concurrent NetSuite syncs across every worker process (the smallest account allows 5 requests). */
  ERP_SYNC_CONCURRENCY: int(4, 1),
  ERP_SYNC_ATTEMPTS: int(8, 1),
  /** First retry delay; doubles each attempt, with jitter, capped at ERP_SYNC_BACKOFF_MAX_MS. */
  ERP_SYNC_BACKOFF_MS: int(5000, 1),
  ERP_SYNC_BACKOFF_MAX_MS: int(15 * 60_000, 1),
  /** Orders pending longer than this (minutes) are requested again by the 10-minute reconcile job. */
  ERP_SYNC_STALE_MINUTES: int(30, 1),
  /**
   * Job lock of a sync (renewed every half of it while the sync runs) and how often stalled syncs are
   * looked for: a killed worker's syncs hold the global concurrency slots until they are moved back,
   * within about ERP_SYNC_LOCK_MS + 2 × ERP_SYNC_STALLED_CHECK_MS (JOB_LOCK_MS for the other queues).
   */
  ERP_SYNC_LOCK_MS: int(5000, 1000),
  ERP_SYNC_STALLED_CHECK_MS: int(1000, 100),

  /** smtp(s)://user:pass@host:port; without it messages are written to MAIL_OUTBOX_DIR. */
  SMTP_URL: optionalString(),
  MAIL_FROM: optionalString(),
  MAIL_OUTBOX_DIR: z.string().default(path.join(REPO_ROOT, '.local/mail-outbox')),
  EMAIL_ATTEMPTS: int(6, 1),
  /** First retry delay of a temporarily failed email; doubles each attempt. */
  EMAIL_BACKOFF_MS: int(10_000, 1),
  EMAIL_CONCURRENCY: int(5, 1),

  /**
   * Written every HEARTBEAT_INTERVAL_MS while the process is healthy (its consumers run, PostgreSQL
   * answers); `node workers/dist/healthcheck.js` (the container's health check) reads its age.
   */
  HEARTBEAT_FILE: z.string().default(path.join(REPO_ROOT, '.local/worker-heartbeat')),
  HEARTBEAT_INTERVAL_MS: int(10_000, 100),

  /** Where export files live: EXPORTS_DIR or an S3 bucket (STORAGE_URL; @nh/server storage/config.ts, shared with the API). */
  ...storageEnvShape(REPO_ROOT),
  /** Damage claims' photos when STORAGE_URL is unset (the API writes them; housekeeping deletes those no claim names after a day). */
  CLAIM_PHOTOS_DIR: z.string().default(path.join(REPO_ROOT, '.local/claim-photos')),
  /** An export writes its rows done (the live progress bar) every this many rows. */
  EXPORT_PROGRESS_EVERY: int(10_000, 1),
  /** A finished export's file is kept this long (hours), then deleted by housekeeping (its download answers 410). */
  EXPORT_RETENTION_HOURS: int(24, 1),

  /** Housekeeping (hourly): published outbox rows and finished idempotency keys older than this go. */
  RETENTION_DAYS: int(7, 1),
  /** Housekeeping (hourly): NetSuite ledger rows (every sync request) older than this go. */
  NETSUITE_LEDGER_RETENTION_DAYS: int(90, 1),
  /**
   * Payment reconciliation (every 10 minutes): a pending order whose charge outcome is unknown is
   * looked up at the gateway once it is this old (minutes); well past the API's gateway timeout, so no
   * charge for it can still be in flight.
   */
  PAYMENT_RECONCILE_AFTER_MINUTES: int(15, 1),

  /**
   * Card payments for renewals and the payment reconciliation: the API's variables and rule
   * (@nh/server payments/select.ts), so renewals charge (and the reconciliation asks) the gateway the
   * API uses. Workers never tokenise a card, so AUTHNET_PUBLIC_CLIENT_KEY is not needed here.
   */
  ...paymentsEnvShape,
  /** Sales tax by destination (issue 25): the API's and the workers' one rule (@nh/server tax). */
  ...taxEnvShape,
  /** Attempts of one renew job when the database fails before the charge (a charge is never repeated). */
  RENEWAL_JOB_ATTEMPTS: int(3, 1),
  RENEWAL_JOB_BACKOFF_MS: int(60_000, 1),
  /**
   * Renew jobs one worker process runs at once (each waits on one gateway call of ~300 ms, holding no
   * database connection meanwhile): 16 ÷ 0.3 s ≈ 53 renewals/s, 100,000 plans in about half an hour at
   * ~20 % of a core (bench:renewals; docs/decisions/subscriptions.md, Benchmarks). Lower it if the
   * gateway throttles; it multiplies with the worker processes consuming `renewals`.
   */
  RENEWAL_CONCURRENCY: int(16, 1),
})
  .superRefine((env, ctx) => {
    // Links in emails name the shop: never http://localhost:5000 in production.
    requireSiteUrlInProduction(env, ctx);
    requireClusterReadyRedis(env, ctx);
  });

/** What the NetSuite client is made with (erp-sync/netsuite/client.ts): the NETSUITE_* variables. */
export interface NetSuiteConfig {
  accountId: string;
  consumerKey: string;
  consumerSecret: string;
  tokenId: string;
  tokenSecret: string;
  /** Overrides `https://<account>.suitetalk.api.netsuite.com` (a sandbox proxy, the test server). */
  baseUrl?: string;
  timeoutMs?: number;
  /** Keep-alive connections to NetSuite (the most requests this process has in flight; default 4). */
  maxSockets?: number;
}

export type WorkerConfig = z.infer<typeof schema> & { netsuite: NetSuiteConfig | null };

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  requireAuthnetEnvInProduction(env);
  const parsed = loadEnv(schema, env);
  // The S3 settings' cross-variable rule (a credential pair), checked at start like the rest.
  s3SettingsOf(parsed);
  const ns = {
    NETSUITE_ACCOUNT_ID: parsed.NETSUITE_ACCOUNT_ID,
    NETSUITE_CONSUMER_KEY: parsed.NETSUITE_CONSUMER_KEY,
    NETSUITE_CONSUMER_SECRET: parsed.NETSUITE_CONSUMER_SECRET,
    NETSUITE_TOKEN_ID: parsed.NETSUITE_TOKEN_ID,
    NETSUITE_TOKEN_SECRET: parsed.NETSUITE_TOKEN_SECRET,
  };
  // Each running sync holds a connection for its order's lock besides the ones its queries take.
  if (parsed.DATABASE_POOL_MAX !== undefined && parsed.DATABASE_POOL_MAX < parsed.ERP_SYNC_CONCURRENCY + 2)
    throw new ConfigError(`Invalid configuration: DATABASE_POOL_MAX must be at least ERP_SYNC_CONCURRENCY + 2 (${parsed.ERP_SYNC_CONCURRENCY + 2}): each NetSuite sync holds a connection for its lock`);
  const missing = Object.entries(ns).filter(([, v]) => !v).map(([k]) => k);
  // All or nothing: a half-configured NetSuite is a mistake, not "not configured".
  if (missing.length > 0 && missing.length < Object.keys(ns).length) {
    throw new ConfigError(`Invalid configuration: ${missing.join(', ')} must be set together with the other NETSUITE_* variables`);
  }
  const netsuite: NetSuiteConfig | null = missing.length === 0
    ? {
        accountId: parsed.NETSUITE_ACCOUNT_ID!,
        consumerKey: parsed.NETSUITE_CONSUMER_KEY!,
        consumerSecret: parsed.NETSUITE_CONSUMER_SECRET!,
        tokenId: parsed.NETSUITE_TOKEN_ID!,
        tokenSecret: parsed.NETSUITE_TOKEN_SECRET!,
        baseUrl: parsed.NETSUITE_BASE_URL,
        timeoutMs: parsed.NETSUITE_TIMEOUT_MS,
        // One connection per sync this process may run at once.
        maxSockets: parsed.ERP_SYNC_CONCURRENCY,
      }
    : null;
  return {
    ...parsed,
    MAIL_OUTBOX_DIR: path.resolve(parsed.MAIL_OUTBOX_DIR),
    EXPORTS_DIR: path.resolve(parsed.EXPORTS_DIR),
    CLAIM_PHOTOS_DIR: path.resolve(parsed.CLAIM_PHOTOS_DIR),
    netsuite,
  };
}
