/**
 * What ships: the SPA build is always a production build without source maps, and the container files
 * keep their promises (multi-stage, production dependencies only, non-root, health checks, the API's
 * and the worker's files in one MinIO bucket, no secrets in the build context), and a production
 * process refuses to start without the settings it cannot do without.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveConfig } from 'vite';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../workers/src/lib/config';
import { loadApiConfig, REPO_ROOT } from '../src/lib/config';
import { startTestApi, type TestApi } from './support/harness';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

describe('the SPA build', () => {
  it('is a production build without source maps even with NODE_ENV=development in the environment', async () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    try {
      const config = await resolveConfig(
        { root: path.join(REPO_ROOT, 'web'), configFile: path.join(REPO_ROOT, 'web/vite.config.ts'), logLevel: 'silent' },
        'build',
        'production',
      );
      expect(config.isProduction).toBe(true);
      expect(config.build.sourcemap).toBe(false);
      expect(process.env.NODE_ENV).toBe('production');
    } finally {
      process.env.NODE_ENV = before;
    }
  });

  describe('as served (after `npm run build`)', () => {
    let api: TestApi;
    const assets = path.join(REPO_ROOT, 'web/dist/assets');
    beforeAll(async () => {
      api = await startTestApi();
    });
    afterAll(() => api.close());

    it('has no source map, nor a link to one, and answers 404 for /assets/*.js.map', async () => {
      const files = fs.readdirSync(assets);
      const scripts = files.filter((f) => f.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
      for (const script of scripts) expect(fs.readFileSync(path.join(assets, script), 'utf8')).not.toContain('sourceMappingURL');
      const res = await api.request(`/assets/${scripts[0]}.map`);
      expect(res.status).toBe(404);
    });

    it("ships React's production build (none of its development-only warnings)", () => {
      const bundle = fs
        .readdirSync(assets)
        .filter((f) => f.endsWith('.js'))
        .map((f) => fs.readFileSync(path.join(assets, f), 'utf8'))
        .join('\n');
      expect(bundle).not.toContain('unique "key" prop');
    });
  });
});

describe('the container image and the compose file', () => {
  const dockerfile = read('Dockerfile');
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, Record<string, unknown>> };

  it('Dockerfile: a build stage and a runtime stage with production dependencies only, a non-root user and a HEALTHCHECK', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(3);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    expect(runtime).toContain('/healthz');
    // Node 22 LTS (Node 20 is past its end of life) in both stages.
    expect(dockerfile.match(/^FROM node:22-bookworm-slim AS (build|runtime)$/gm)).toHaveLength(2);
    // The image is not a developer's checkout: no .git, so an unset NODE_ENV refuses to start (ENV sets production).
    expect(runtime).not.toMatch(/COPY .*\.git\b/);
    expect(runtime).toMatch(/^ENV NODE_ENV=production /m);
  });

  it("Dockerfile: the live release's hashed assets (PREVIOUS_IMAGE) are kept beside the new ones, one release back", () => {
    expect(dockerfile).toMatch(/^ARG PREVIOUS_IMAGE=node:22-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^FROM \$\{PREVIOUS_IMAGE\} AS previous$/m);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    // Its own assets/, never its previous-assets/: nothing accumulates release after release.
    expect(runtime).toContain('COPY --from=previous /app/web/dist/assets web/dist/previous-assets');
    expect(runtime.indexOf('COPY --from=build /app/web/dist web/dist')).toBeLessThan(runtime.indexOf('COPY --from=previous'));
  });

  it("compose: stop_grace_period covers the API's delay and grace, and the workers' grace (Docker's 10 s would cut them)", () => {
    const seconds = (v: unknown) => Number(/^(\d+)s$/.exec(String(v))?.[1]);
    const { web, worker } = compose.services;
    const base = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), SIGN_IN_CODE_PEPPER: 'p'.repeat(32), SHOP_SITE_URL: 'https://shop.example.com' };
    const api = loadApiConfig(base);
    expect(seconds(web!.stop_grace_period) * 1000).toBeGreaterThan(api.SHUTDOWN_DELAY_MS + api.SHUTDOWN_GRACE_MS);
    // The worker exits at the latest SHUTDOWN_GRACE_MS + 10 s after SIGTERM (workers/src/main.ts).
    const workers = loadWorkerConfig({ ...base });
    expect(seconds(worker!.stop_grace_period) * 1000).toBe(workers.SHUTDOWN_GRACE_MS + 10_000);
  });

  it("compose: the worker yields the CPU to web (a nice value stops at the container's cgroup, cpu_shares does not)", () => {
    const { web, worker } = compose.services;
    // Docker's default weight is 1024; the worker's jobs wait for web's requests when both want the cores.
    expect(web!.cpu_shares).toBeUndefined();
    expect(worker!.cpu_shares).toBe(128);
  });

  it('.dockerignore leaves out secrets, local state and installed trees', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['.env', '.local', 'node_modules']) expect(ignored).toContain(entry);
  });

  it('compose: web and worker restart by themselves and have health checks', () => {
    const { web, worker, release } = compose.services;
    for (const service of [web!, worker!]) {
      expect(service.restart).toBe('unless-stopped');
      expect(service.healthcheck).toBeDefined();
    }
    expect(JSON.stringify(worker!.healthcheck)).toContain('workers/dist/healthcheck.js');
    // Production mode: the release step seeds demo data only when asked to.
    expect((release!.environment as Record<string, string>).NODE_ENV).toBe('production');
    expect((release!.environment as Record<string, string>).SEED_DEMO_DATA).toBe('${SEED_DEMO_DATA:-false}');
  });

  it('compose: pictures and export files live in a MinIO bucket that web and worker both use, made by a one-shot mc service', () => {
    const { minio, web, worker } = compose.services;
    const setup = compose.services['minio-setup'];
    expect(String(minio!.image)).toMatch(/^minio\/minio:RELEASE\./);
    expect(minio!.command).toEqual(['server', '/data', '--console-address', ':9001']);
    expect(minio!.volumes).toEqual(['minio-data:/data']);
    expect(JSON.stringify(minio!.healthcheck)).toContain('ready');
    // Signed export download links are followed by the browser: the S3 port is published.
    expect(minio!.ports).toEqual(['9000:9000']);
    expect(String(setup!.image)).toMatch(/^minio\/mc:RELEASE\./);
    expect(setup!.restart).toBe('no');
    expect(setup!.depends_on).toEqual({ minio: { condition: 'service_healthy' } });
    const script = (setup!.entrypoint as string[]).join(' ');
    expect(script).toContain('mc alias set shop http://minio:9000');
    expect(script).toContain('mc mb --ignore-existing shop/nurture-home');
    for (const service of [web!, worker!]) {
      const env = service.environment as Record<string, string>;
      expect(env).toMatchObject({
        STORAGE_URL: 's3://nurture-home',
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PUBLIC_ENDPOINT: '${S3_PUBLIC_ENDPOINT:-http://localhost:9000}',
      });
      // The credentials are MinIO's own, from the environment of `docker compose`, never written here.
      expect(env.AWS_ACCESS_KEY_ID).toBe((minio!.environment as Record<string, string>).MINIO_ROOT_USER);
      expect(env.AWS_SECRET_ACCESS_KEY).toBe((minio!.environment as Record<string, string>).MINIO_ROOT_PASSWORD);
      expect(env.AWS_SECRET_ACCESS_KEY).toMatch(/^\$\{MINIO_ROOT_PASSWORD:\?/);
      expect((service.depends_on as Record<string, unknown>)['minio-setup']).toEqual({ condition: 'service_completed_successfully' });
      // Nothing shared through a volume any more: the bucket is reachable from any host.
      expect(((service.volumes as string[] | undefined) ?? []).filter((v) => /exports|uploads/.test(v))).toEqual([]);
    }
    // The bucket STORAGE_URL names is the one the setup makes.
    expect((web!.environment as Record<string, string>).STORAGE_URL).toBe(`s3://${script.split('shop/').pop()}`);
  });
});

describe('a production process with Authorize.Net keys but no AUTHNET_ENV', () => {
  it.each([
    ['api', 'api/src/main.ts'],
    ['workers', 'workers/src/main.ts'],
  ])('%s: does not start, and says so in one line naming AUTHNET_ENV', async (name, main) => {
    const { code, stderr } = await promisify(execFile)(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), [path.join(REPO_ROOT, main)], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        SESSION_SECRET: 'z'.repeat(32),
        SIGN_IN_CODE_PEPPER: 'p'.repeat(32),
        SHOP_SITE_URL: 'https://shop.example.com',
        AUTHNET_API_LOGIN_ID: 'login',
        AUTHNET_TRANSACTION_KEY: 'key',
        AUTHNET_PUBLIC_CLIENT_KEY: 'public',
        AUTHNET_ENV: '',
        DATABASE_URL: 'postgres://127.0.0.1:1/none',
        REDIS_URL: 'redis://127.0.0.1:1',
      },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\[${name}\\] Invalid configuration: AUTHNET_ENV: is required when NODE_ENV=production`));
  });
});

describe('a production process without SHOP_SITE_URL', () => {
  // The processes as `npm start` and the Procfile run them (from source here: tsx), in production mode
  // with everything else they need; SHOP_SITE_URL empty counts as unset.
  const start = (main: string) =>
    promisify(execFile)(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), [path.join(REPO_ROOT, main)], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        SESSION_SECRET: 'z'.repeat(32),
        SHOP_SITE_URL: '',
        DATABASE_URL: 'postgres://127.0.0.1:1/none',
        REDIS_URL: 'redis://127.0.0.1:1',
      },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );

  it.each([
    ['api', 'api/src/main.ts'],
    ['workers', 'workers/src/main.ts'],
  ])('%s: does not start, and says so in one line naming SHOP_SITE_URL', async (name, main) => {
    const { code, stderr } = await start(main);
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\[${name}\\] Invalid configuration: .*SHOP_SITE_URL: is required when NODE_ENV=production`));
  });

  it('compose passes AUTHNET_ENV through without a default (a production process with keys must be told which account)', () => {
    const { web, worker } = (parse(read('docker-compose.yml')) as { services: Record<string, { environment: Record<string, string> }> }).services;
    for (const service of [web!, worker!]) expect(service.environment.AUTHNET_ENV).toBe('${AUTHNET_ENV:-}');
  });

  it('compose runs web and worker in production mode with a SHOP_SITE_URL (the local address unless told otherwise)', () => {
    const { web, worker } = (parse(read('docker-compose.yml')) as { services: Record<string, { environment: Record<string, string> }> })
      .services;
    for (const service of [web!, worker!]) {
      expect(service.environment.NODE_ENV).toBe('production');
      expect(service.environment.SHOP_SITE_URL).toBe('${SHOP_SITE_URL:-http://localhost:5000}');
    }
  });
});
