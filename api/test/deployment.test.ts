/**
 * What ships: the SPA build is always a production build without source maps, and the container files
 * keep their promises (multi-stage, production dependencies only, non-root, health checks, one export
 * volume for the API and the worker, no secrets in the build context).
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfig } from 'vite';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { startTestApi, type TestApi } from './support/harness';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

describe('the SPA build', () => {
  it('is a production build without source maps even with NODE_ENV=development in the environment', async () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development';
    try {
      const config = await resolveConfig({ root: path.join(REPO_ROOT, 'web'), configFile: path.join(REPO_ROOT, 'web/vite.config.ts'), logLevel: 'silent' }, 'build', 'production');
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
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    expect(runtime).toContain('/healthz');
  });

  it('.dockerignore leaves out secrets, local state and installed trees', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['.env', '.local', 'node_modules']) expect(ignored).toContain(entry);
  });

  it('compose: web and worker share the export volume, restart by themselves and have health checks', () => {
    const { web, worker, release } = compose.services;
    const exportsMount = (service: Record<string, unknown>) => (service.volumes as string[]).find((v) => v.endsWith(':/app/.local/exports'));
    expect(exportsMount(web!)).toBeDefined();
    expect(exportsMount(web!)).toBe(exportsMount(worker!));
    for (const service of [web!, worker!]) {
      expect(service.restart).toBe('unless-stopped');
      expect(service.healthcheck).toBeDefined();
    }
    expect(JSON.stringify(worker!.healthcheck)).toContain('workers/dist/healthcheck.js');
    // Production mode: the release step seeds demo data only when asked to.
    expect((release!.environment as Record<string, string>).NODE_ENV).toBe('production');
    expect((release!.environment as Record<string, string>).SEED_DEMO_DATA).toBe('${SEED_DEMO_DATA:-false}');
  });
});
