import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ShopIdentity } from '@nh/shared/constants';

/** A configuration value that is wrong: reported as one line naming the variable, never a stack trace. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/nurture_home';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
/** An optional string variable where an empty value counts as unset. */
export const optionalString = () => z.preprocess(emptyToUndefined, z.string().optional());

/**
 * A Redis key prefix: letters, digits, `_`, `-`, `:`, and at most one hash tag `{…}` with a non-empty
 * tag (Redis Cluster hashes only the tag, so every key under the prefix shares its slot).
 */
export const KEY_PREFIX = /^(?=.)[A-Za-z0-9_:-]*(?:\{[A-Za-z0-9_:-]+\}[A-Za-z0-9_:-]*)?$/;
export const KEY_PREFIX_RULE = 'must be letters, digits, _, - or : with at most one non-empty hash tag such as {nh} or nh:{prod}';

/** The hash tag of a key prefix (`nh` of `{nh}` and `nh:{nh}:x`), or null when it has none. */
export function hashTagOf(prefix: string): string | null {
  return /\{([^{}]+)\}/.exec(prefix)?.[1] ?? null;
}

/** One node of REDIS_CLUSTER_NODES: `host:port`, an IPv6 address in brackets (`[::1]:7000`). */
const REDIS_NODE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
export interface RedisNode {
  host: string;
  port: number;
}
function redisNodeOf(text: string): RedisNode {
  const colon = text.lastIndexOf(':');
  return { host: text.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(text.slice(colon + 1)) };
}

/** Variables every process reads. */
export const baseEnvShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().url().default(DEFAULT_DATABASE_URL)),
  /**
   * DATABASE_URL goes through a pooler in transaction mode (PgBouncer): no named prepared statements
   * (PgBouncer before 1.21 cannot keep them), and what needs a session of its own (the relay's LISTEN,
   * the NetSuite sync's lock, the release) uses DATABASE_DIRECT_URL. docs/decisions/scale-out.md.
   */
  DATABASE_POOLED: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')).transform((v) => v === 'true'),
  /** The database itself, past the pooler: sessions (LISTEN, advisory locks, the release). */
  DATABASE_DIRECT_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** Connections this process may open to DATABASE_URL (each process's default when unset). */
  DATABASE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(500).optional()),
  /**
   * A streaming replica for the reads that may lag a moment (catalogue, SSR, admin lists, reports,
   * exports); unset, they read DATABASE_URL. Writes, transactions, checkout, payments, sign-in and
   * stock never use it. DATABASE_POOLED applies to it too. docs/decisions/scale-out.md.
   */
  DATABASE_READ_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** Connections this process may open to DATABASE_READ_URL (each process's default when unset). */
  DATABASE_READ_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(500).optional()),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().url().default(DEFAULT_REDIS_URL)),
  /**
   * A Redis Cluster's nodes (`host:port,host:port`, any of them: the rest are discovered). Set: every
   * process uses a cluster client, REDIS_URL gives only its user, password and TLS (`rediss://`), and
   * QUEUE_PREFIX must carry a hash tag (`requireClusterReadyRedis`; docs/decisions/scale-out.md).
   */
  REDIS_CLUSTER_NODES: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean)) : v),
    z.array(z.string().regex(REDIS_NODE, 'must be a comma-separated list of host:port (e.g. 10.0.0.5:6379,10.0.0.6:6379)').transform(redisNodeOf)).optional(),
  ),
  /**
   * Prefix of every BullMQ key and of the shop's own Redis keys (tests use their own so runs never
   * share queues). May carry one hash tag (`{nh}`, `nh:{prod}`): then every key the shop writes lands in
   * one Redis Cluster slot, as BullMQ and our multi-key commands need (required with REDIS_CLUSTER_NODES).
   */
  QUEUE_PREFIX: z.preprocess(emptyToUndefined, z.string().regex(KEY_PREFIX, KEY_PREFIX_RULE).default('nh')),
  SHOP_NAME: optionalString(),
  SHOP_SUPPORT_EMAIL: optionalString(),
  SHOP_SUPPORT_PHONE: optionalString(),
  SHOP_SUPPORT_HOURS: optionalString(),
  /**
   * The storefront's public address (e.g. https://shop.example.com): links in emails, the pages'
   * canonical addresses and structured data, an allowed origin. Required in production
   * (`requireSiteUrlInProduction`).
   */
  SHOP_SITE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /**
   * The internal listener of Prometheus metrics and health (`/metrics`, `/healthz`, `/readyz`); none
   * when unset, any free port with 0. Never the public port: keep it off the load balancer.
   */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
};

/**
 * SHOP_SITE_URL is required when NODE_ENV=production, for every process that writes the shop's address
 * (the API: canonical links, og:url, JSON-LD, the sitemap; the workers: links in emails). Without it a
 * production shop would send links to http://localhost:5000, and its pages would name whatever host a
 * request claimed. Used in a schema's superRefine, so it is reported with the other variables on one line.
 */
export function requireSiteUrlInProduction(env: { NODE_ENV: string; SHOP_SITE_URL?: string }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && !env.SHOP_SITE_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['SHOP_SITE_URL'],
      message: "is required when NODE_ENV=production (the shop's public address, e.g. https://shop.example.com)",
    });
  }
}

/**
 * With REDIS_CLUSTER_NODES, QUEUE_PREFIX must carry a hash tag: BullMQ's scripts touch many keys of a
 * queue at once and our own MULTI and scripts several keys of the prefix, which a cluster allows only
 * within one slot. And a cluster has only database 0, so REDIS_URL may not name another. Used in a
 * schema's superRefine, reported with the other variables on one line.
 */
export function requireClusterReadyRedis(env: { REDIS_URL: string; REDIS_CLUSTER_NODES?: RedisNode[]; QUEUE_PREFIX: string }, ctx: z.RefinementCtx): void {
  if (!env.REDIS_CLUSTER_NODES) return;
  if (!hashTagOf(env.QUEUE_PREFIX)) {
    ctx.addIssue({
      code: 'custom',
      path: ['QUEUE_PREFIX'],
      message: `must carry a hash tag when REDIS_CLUSTER_NODES is set (e.g. {${env.QUEUE_PREFIX}}): a Redis Cluster runs a queue's commands only when its keys share one slot`,
    });
  }
  const db = new URL(env.REDIS_URL).pathname.replace(/^\//, '');
  if (db !== '' && db !== '0') {
    ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: `names database ${db}, but a Redis Cluster has only database 0 (drop the /${db})` });
  }
}

/** The SHOP_* variables as overrides for `configureShop`: every process applies them the same way. */
export function shopOverrides(env: {
  SHOP_NAME?: string;
  SHOP_SUPPORT_EMAIL?: string;
  SHOP_SUPPORT_PHONE?: string;
  SHOP_SUPPORT_HOURS?: string;
  SHOP_SITE_URL?: string;
}): Partial<ShopIdentity> {
  return {
    name: env.SHOP_NAME,
    supportEmail: env.SHOP_SUPPORT_EMAIL,
    supportPhone: env.SHOP_SUPPORT_PHONE,
    supportHours: env.SHOP_SUPPORT_HOURS,
    siteUrl: env.SHOP_SITE_URL,
  };
}

/**
 * The repository's root, from a module of one of its workspaces: the folder above the nearest one with a
 * package.json, wherever the module sits in its workspace (`api/src/lib/config.ts` under tsx, bundled
 * into `api/dist/main.js` when built).
 */
export function repoRootOf(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = path.dirname(dir);
  }
  return path.dirname(dir);
}

/** A developer's checkout: the repository's `.git` is beside the code (an image or a release bundle has none). */
export function isDeveloperCheckout(root: string = repoRootOf(import.meta.url)): boolean {
  return fs.existsSync(path.join(root, '.git'));
}

let assumedDevelopmentSaid = false;

/**
 * The NODE_ENV a process runs with (docs/decisions/production-safety.md). Set: as it is. Unset in a
 * developer's checkout: development, said once on stderr. Unset anywhere else (an image, a server, a
 * release bundle): a configuration error, since development means the local payment sandbox, the demo
 * owner, the development session secret and demo data.
 */
export function withNodeEnv(env: NodeJS.ProcessEnv, checkout: () => boolean = isDeveloperCheckout): NodeJS.ProcessEnv {
  if (env.NODE_ENV) return env;
  if (!checkout()) {
    throw new ConfigError(
      "Invalid configuration: NODE_ENV is unset outside a developer's checkout: set NODE_ENV=production on a server (development or test only on a developer's machine)",
    );
  }
  if (!assumedDevelopmentSaid) {
    assumedDevelopmentSaid = true;
    console.warn("[nurture-home] NODE_ENV is unset: assuming development (a developer's checkout). Never run a shop like this: set NODE_ENV=production.");
  }
  return { ...env, NODE_ENV: 'development' };
}

/** Parses the environment against `schema` (NODE_ENV by `withNodeEnv`); a failure names each bad variable on one line. */
export function loadEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(withNodeEnv(env));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/** Prints a start-up failure as one clear line and exits. */
export function exitOnStartupError(processName: string, error: unknown): never {
  const err = error as NodeJS.ErrnoException & { address?: string; port?: number };
  let message = err instanceof Error ? err.message : String(error);
  if (err.code === 'ECONNREFUSED')
    message = `cannot reach ${err.address ?? 'a service'}:${err.port ?? ''} (is PostgreSQL/Redis running? check DATABASE_URL and REDIS_URL)`;
  if (err.code === 'EADDRINUSE') message = `port ${err.port ?? ''} is already in use (set PORT)`;
  console.error(`[${processName}] ${message}`);
  process.exit(1);
}
