/**
 * The shop of `npm run test:scale`, started from nothing and torn down whatever happens: a fresh
 * database (the release's own migrate and seed, past the pooler), Debian's PgBouncer in transaction
 * mode, Redis, the S3-protocol test server, the NetSuite stub, two API processes behind HAProxy and two
 * workers (one consuming only `renewals,maintenance`), every process built and run as production runs
 * it, with its own environment.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '@nh/server/runtime/database';
import { startPgBouncer, type PgBouncer } from '@nh/server/testing/pgbouncer';
import { startTestS3, type TestS3 } from '@nh/server/testing/s3-server';
import { startNetSuiteStub, type NetSuiteStub } from '../support/netsuite-stub';
import { killAll, runToEnd, startProcess, stopProcess, waitHttpReady, type Proc } from './processes';
import { startProxy, type Proxy } from './proxy';
import { startScaleRedis, type ScaleRedis } from './redis';
import { freePort } from '@nh/server/testing/free-port';

/** Each process's pool (DATABASE_POOL_MAX): small, so that the check that no process passes it means something. */
export const POOL_MAX = 8;
/** Seconds a catalogue answer may be reused (CATALOG_CACHE_SECONDS): a price change shows on every API within it. */
export const CACHE_SECONDS = 2;
export const ADMIN = { email: 'owner@scale.test', password: 'scale owner password 1' };


export interface ApiProcess {
  name: string;
  port: number;
  url: string;
  proc: Proc;
}
export interface WorkerProcess {
  name: string;
  queues: string;
  metricsPort: number;
  proc: Proc;
}

export interface Stack {
  root: string;
  directUrl: string;
  pooledUrl: string;
  pgbouncerPort: number;
  redis: ScaleRedis;
  queuePrefix: string;
  proxy: Proxy;
  apis: ApiProcess[];
  workers: WorkerProcess[];
  s3: TestS3;
  netsuite: NetSuiteStub;
  /** (Re)starts an API or a worker under its name with the same environment and ports; waits until it is ready. */
  startApi: (api: ApiProcess) => Promise<void>;
  startWorker: (worker: WorkerProcess) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Starts everything; `onClose` gets the teardown at once, so an interruption while the stack is still
 * starting removes what was started so far. The teardown runs once, however often it is called.
 */
export async function startStack(root: string, onClose: (close: () => Promise<void>) => void): Promise<Stack> {
  const cleanups: Array<() => Promise<void>> = [];
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await killAll();
      for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(`cleanup: ${String(error)}`));
    })());
  onClose(close);
  try {
    const id = randomBytes(4).toString('hex');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-scale-'));
    cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));
    const server = new URL(process.env.SCALE_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    server.pathname = `/nh_scale_${id}`;
    const directUrl = server.toString();
    cleanups.push(() => dropDatabase(directUrl));

    const bouncer: PgBouncer = await startPgBouncer(directUrl, 40);
    cleanups.push(() => bouncer.stop());
    const pooledUrl = bouncer.urlFor(directUrl);
    const pgbouncerPort = Number(new URL(pooledUrl).port);

    const redis = await startScaleRedis();
    cleanups.push(() => redis.stop());
    const queuePrefix = redis.prefix;

    const s3 = await startTestS3();
    cleanups.push(() => s3.close());
    const netsuite = await startNetSuiteStub();
    cleanups.push(() => netsuite.close());

    const proxyPort = await freePort();
    const siteUrl = `http://127.0.0.1:${proxyPort}`;
    const common: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: pooledUrl,
      DATABASE_POOLED: 'true',
      DATABASE_DIRECT_URL: directUrl,
      DATABASE_POOL_MAX: String(POOL_MAX),
      ...redis.env,
      SHOP_SITE_URL: siteUrl,
      SIGN_IN_CODE_PEPPER: randomBytes(24).toString('hex'),
      PAYMENTS_MODE: 'local-sandbox',
      ...s3.env(`scale-${id}`),
    };

    // The release, as production runs it: migrate (creates the database and the first owner) and seed.
    const release = { ...common, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SEED_DEMO_DATA: 'true' };
    await runToEnd(root, 'migrate', 'migrations/dist/migrate.js', release, 'migrations/dist/instrument.js');
    await runToEnd(root, 'seed', 'migrations/dist/seed.js', release, 'migrations/dist/instrument.js');

    const apiEnv = (port: number) => ({
      ...common,
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSION_SECRET: 'scale-session-secret-shared-by-every-api',
      TRUST_PROXY: 'true',
      SHUTDOWN_DELAY_MS: '2000',
      SHUTDOWN_GRACE_MS: '10000',
      CATALOG_CACHE_SECONDS: String(CACHE_SECONDS),
      UPLOADS_DIR: path.join(tmp, 'uploads'),
      CLAIM_PHOTOS_DIR: path.join(tmp, 'claim-photos'),
      EXPORTS_DIR: path.join(tmp, 'exports'),
    });
    const workerEnv = (queues = '') => ({
      ...common,
      ...netsuite.env(),
      ...(queues ? { WORKER_QUEUES: queues } : {}),
      RELAY_SWEEP_MS: '500',
      RELAY_BATCH_SIZE: '100',
      SHUTDOWN_GRACE_MS: '5000',
      // At the API's priority, as the suite's timings were made (WORKER_NICE: workers/test/cpu-priority.test.ts).
      WORKER_NICE: '0',
      MAIL_OUTBOX_DIR: path.join(tmp, 'mail'),
      HEARTBEAT_FILE: path.join(tmp, `heartbeat-${queues || 'all'}`),
      EXPORTS_DIR: path.join(tmp, 'exports'),
    });

    const startApi = async (api: ApiProcess) => {
      api.proc = startProcess(root, api.name, 'api/dist/main.js', apiEnv(api.port), 'api/dist/instrument.js');
      await waitHttpReady(api.proc, `${api.url}/readyz`);
    };
    const startWorker = async (worker: WorkerProcess) => {
      worker.proc = startProcess(
        root,
        worker.name,
        'workers/dist/main.js',
        { ...workerEnv(worker.queues), METRICS_PORT: String(worker.metricsPort) },
        'workers/dist/instrument.js',
      );
      await waitHttpReady(worker.proc, `http://127.0.0.1:${worker.metricsPort}/readyz`);
    };

    const apis: ApiProcess[] = [];
    for (const name of ['api-1', 'api-2']) {
      const port = await freePort();
      apis.push({ name, port, url: `http://127.0.0.1:${port}`, proc: undefined as unknown as Proc });
    }
    const workers: WorkerProcess[] = [
      { name: 'worker-all', queues: '', metricsPort: await freePort(), proc: undefined as unknown as Proc },
      { name: 'worker-renewals', queues: 'renewals,maintenance', metricsPort: await freePort(), proc: undefined as unknown as Proc },
    ];
    await Promise.all([...apis.map(startApi), ...workers.map(startWorker)]);
    const proxy = await startProxy(
      proxyPort,
      apis.map((a) => ({ name: a.name, port: a.port })),
    );
    cleanups.push(() => proxy.stop());
    // The processes stop before the services they use (cleanups run in reverse).
    cleanups.push(async () => {
      await Promise.all([
        ...apis.map((a) => stopProcess(a.proc, 'SIGTERM', 5000)),
        ...workers.map((w) => stopProcess(w.proc, 'SIGTERM', 8000)),
      ]);
    });

    return {
      root,
      directUrl,
      pooledUrl,
      pgbouncerPort,
      redis,
      queuePrefix,
      proxy,
      apis,
      workers,
      s3,
      netsuite,
      startApi,
      startWorker,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
