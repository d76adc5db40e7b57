/**
 * Prometheus metrics (prom-client) of the API and the workers: every metric object of the system is
 * defined here once, with its name, help and labels; each process makes its own registry from the
 * groups it reports (`createMetricsRegistry`: the default process metrics plus those groups) and serves
 * it on its internal listener (`startMetricsServer`, on METRICS_PORT). docs/decisions/observability.md
 * lists every metric and what it is for.
 *
 * The metric objects are module constants registered in no registry of their own, so code anywhere in a
 * process records on them (`checkoutsTotal.inc(...)`), and a registry only decides what a process shows:
 * the API does not report job durations, the workers do not report HTTP requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { Logger } from './logger';
import { withinTimeout } from './within-timeout';

export { withinTimeout };

export { Registry } from 'prom-client';

// ---------------------------------------------------------------------------------------------- API

/** HTTP requests by the Express route pattern (never the raw URL), method and status. */
export const httpRequestDuration = new Histogram({
  name: 'nh_http_request_duration_seconds',
  help: 'API request duration, by route pattern (e.g. /api/products/:id), method and status code.',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [],
});

export const CHECKOUT_OUTCOMES = ['approved', 'declined', 'error', 'unknown'] as const;
export type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

/** Checkouts that reached the charge, by what the charge decided; `kind` is checkout or subscribe. */
export const checkoutsTotal = new Counter({
  name: 'nh_checkouts_total',
  help: 'Checkouts that reached the card charge, by outcome (approved includes held for review) and kind (checkout, subscribe).',
  labelNames: ['outcome', 'kind'] as const,
  registers: [],
});
// Every series exists from the start at 0, so a rate (the checkout error ratio) is defined before the first error.
for (const outcome of CHECKOUT_OUTCOMES) for (const kind of ['checkout', 'subscribe']) checkoutsTotal.inc({ outcome, kind }, 0);

// ------------------------------------------------------------------------------- API and workers

/** Every call to the payment gateway (payments/instrumented.ts): the API's charges, the workers' renewals and lookups. */
export const paymentGatewayDuration = new Histogram({
  name: 'nh_payment_gateway_duration_seconds',
  help: 'Payment gateway call latency, by provider, operation (chargeOpaqueData, chargeProfile, findCharge, …) and outcome (the result\'s outcome, ok, or exception).',
  labelNames: ['provider', 'operation', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  registers: [],
});

/** Reasons the tax provider's answer was not used (tax/taxjar.ts). */
export const TAX_FALLBACK_REASONS = ['timeout', 'server-error', 'client-error', 'network', 'bad-answer'] as const;
export type TaxFallbackReason = (typeof TAX_FALLBACK_REASONS)[number];

/** Tax quotes the provider did not give in time or answered wrongly: the rate table answered instead. */
export const taxProviderFallbacks = new Counter({
  name: 'nh_tax_provider_fallbacks_total',
  help: 'Tax quotes answered from the rate table because the tax provider (TaxJar) timed out or failed, by provider and reason (timeout, server-error, client-error, network, bad-answer).',
  labelNames: ['provider', 'reason'] as const,
  registers: [],
});
for (const reason of TAX_FALLBACK_REASONS) taxProviderFallbacks.inc({ provider: 'taxjar', reason }, 0);

// ------------------------------------------------------------------------------------------ workers

/** Every attempt of every job, as the queue processor ran it (payload parsing included). */
export const jobDuration = new Histogram({
  name: 'nh_job_duration_seconds',
  help: 'Job attempt duration, by queue, job name (job_name) and status (completed, failed, delayed: put back to wait its turn).',
  // `job_name`, not `job`: Prometheus sets `job` on every series (the scrape job) and would rename ours `exported_job`.
  labelNames: ['queue', 'job_name', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [],
});

/** Failed attempts (a job that will be retried counts each time; the queue's `failed` gauge shows the ones that gave up). */
export const jobFailures = new Counter({
  name: 'nh_job_failures_total',
  help: 'Failed job attempts, by queue and job name (job_name; retried attempts included).',
  labelNames: ['queue', 'job_name'] as const,
  registers: [],
});

// Recorded by the NetSuite client, the renewals and the emails (the export rate is read at scrape time
// from the exports table: workers/src/metrics.ts).

export const netsuiteRequests = new Counter({
  name: 'nh_netsuite_requests_total',
  help: 'NetSuite REST requests, by record type (customer, salesOrder, …) and outcome (ok, client-error, server-error, rate-limited, timeout, network).',
  labelNames: ['record', 'outcome'] as const,
  registers: [],
});

export const netsuite429 = new Counter({
  name: 'nh_netsuite_429_total',
  help: 'NetSuite answers 429 (concurrency limit exceeded).',
  registers: [],
});

export const netsuiteConcurrencyInUse = new Gauge({
  name: 'nh_netsuite_concurrency_in_use',
  help: 'NetSuite requests in flight from this process.',
  registers: [],
});

export const renewalsTotal = new Counter({
  name: 'nh_renewals_total',
  help: 'Subscription renewals, by outcome (charged, declined, skipped, …).',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const emailsTotal = new Counter({
  name: 'nh_emails_total',
  help: 'Emails, by email (job name) and outcome (sent, failed, skipped).',
  labelNames: ['email', 'outcome'] as const,
  registers: [],
});


/** What the API process reports (besides the default process metrics). */
export const API_METRICS: readonly Metric[] = [httpRequestDuration, checkoutsTotal, paymentGatewayDuration, taxProviderFallbacks];

/** What a worker process reports (besides the default process metrics and its scrape-time gauges). */
export const WORKER_METRICS: readonly Metric[] = [
  jobDuration,
  jobFailures,
  paymentGatewayDuration,
  taxProviderFallbacks,
  netsuiteRequests,
  netsuite429,
  netsuiteConcurrencyInUse,
  renewalsTotal,
  emailsTotal,
];

/** A registry with the default process metrics (CPU, memory, event loop lag, GC, handles) and `metrics`. */
export function createMetricsRegistry(metrics: readonly Metric[]): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const metric of metrics) registry.registerMetric(metric);
  return registry;
}

/** Whether one dependency answered a readiness check in time. */
export type CheckState = 'ok' | 'down';

/** 'ok' when `check` settles within `ms`, else 'down' (an error or a timeout). */
export const answeredWithin = async (check: () => Promise<unknown>, ms: number): Promise<CheckState> =>
  (await withinTimeout(() => check().then(() => true), ms, false)) ? 'ok' : 'down';

/** What every process's readiness checks first: PostgreSQL and Redis answer within `ms`. */
export async function dependencyChecks(db: { $client: { query(text: string): Promise<unknown> } }, redis: { ping(): Promise<unknown> }, ms: number): Promise<{ postgres: CheckState; redis: CheckState }> {
  const [postgres, redisState] = await Promise.all([answeredWithin(() => db.$client.query('select 1'), ms), answeredWithin(() => redis.ping(), ms)]);
  return { postgres, redis: redisState };
}

/** A health or readiness answer: `ok` decides 200 or 503; `body` is sent as JSON. */
export interface HealthAnswer {
  ok: boolean;
  body: Record<string, unknown>;
}

export type HealthCheck = () => Promise<HealthAnswer> | HealthAnswer;

const ALIVE: HealthCheck = () => ({ ok: true, body: { status: 'ok' } });

export interface MetricsServerOptions {
  /** METRICS_PORT; 0 takes any free port (tests). */
  port: number;
  host?: string;
  registry: Registry;
  /** GET /healthz (liveness); 200 `{ status: 'ok' }` when not given. */
  health?: HealthCheck;
  /** GET /readyz; answers like /healthz when not given. */
  ready?: HealthCheck;
  log?: Logger;
}

export interface MetricsServer {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  close: () => Promise<void>;
}

/**
 * The internal listener: `/metrics` (Prometheus text format), `/healthz`, `/readyz`; anything else 404.
 * Not for the public internet: it has no authentication (keep METRICS_PORT off the load balancer).
 */
export async function startMetricsServer({ port, host = '0.0.0.0', registry, health = ALIVE, ready = health, log }: MetricsServerOptions): Promise<MetricsServer> {
  const answer = (res: http.ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const check = async (res: http.ServerResponse, run: HealthCheck) => {
    const result = await Promise.resolve()
      .then(run)
      .catch((error: unknown): HealthAnswer => ({ ok: false, body: { status: 'error', error: (error as Error).message } }));
    answer(res, result.ok ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify(result.body));
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed');
    const handle = async () => {
      if (path === '/metrics') return answer(res, 200, registry.contentType, await registry.metrics());
      if (path === '/healthz') return check(res, health);
      if (path === '/readyz') return check(res, ready);
      answer(res, 404, 'text/plain; charset=utf-8', 'Not Found');
    };
    handle().catch((error: unknown) => {
      log?.warn({ err: error, path }, 'metrics listener: answer failed');
      if (!res.headersSent) answer(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
