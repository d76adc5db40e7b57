/**
 * Safe defaults (issue 24, docs/decisions/production-safety.md): NODE_ENV unset is development only in
 * a developer's checkout, AUTHNET_ENV is stated in production, no password is printed, Redis older than
 * 6.2 is refused.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { requireAuthnetEnvInProduction } from '../payments/select';
import { baseEnvShape, ConfigError, isDeveloperCheckout, loadEnv, repoRootOf, withNodeEnv } from './env';
import { createRedis, redisVersionProblem, assertRedisVersion } from './redis';
import { redactSecrets, redactUrl } from './script';

afterEach(() => vi.restoreAllMocks());

describe('NODE_ENV', () => {
  it('set: used as it is, in a checkout or not', () => {
    expect(withNodeEnv({ NODE_ENV: 'production' }, () => false).NODE_ENV).toBe('production');
    expect(withNodeEnv({ NODE_ENV: 'test' }, () => true).NODE_ENV).toBe('test');
  });

  it("unset outside a developer's checkout: the process refuses to start, naming the variable", () => {
    expect(() => withNodeEnv({}, () => false)).toThrow(ConfigError);
    expect(() => withNodeEnv({ NODE_ENV: '' }, () => false)).toThrow(/NODE_ENV is unset outside a developer's checkout: set NODE_ENV=production/);
    expect(() => loadEnv(z.object(baseEnvShape), {})).not.toThrow(); // this repository is a checkout
  });

  it("unset in a developer's checkout: development, and said", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(withNodeEnv({ DATABASE_URL: 'postgres://x@h/db' }, () => true)).toEqual({ DATABASE_URL: 'postgres://x@h/db', NODE_ENV: 'development' });
    // Said once per process (the first time; this test file may not be the first to ask).
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it("a developer's checkout is a repository root with .git (an image or release bundle has none)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-checkout-'));
    expect(isDeveloperCheckout(dir)).toBe(false);
    fs.writeFileSync(path.join(dir, '.git'), 'gitdir: elsewhere\n'); // a worktree's .git is a file
    expect(isDeveloperCheckout(dir)).toBe(true);
    expect(isDeveloperCheckout(repoRootOf(import.meta.url))).toBe(true);
  });
});

describe('AUTHNET_ENV in production', () => {
  const keys = { AUTHNET_API_LOGIN_ID: 'login', AUTHNET_TRANSACTION_KEY: 'key' };
  it('is required when Authorize.Net is used', () => {
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'production', ...keys })).toThrow(/AUTHNET_ENV: is required when NODE_ENV=production/);
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'production', ...keys, AUTHNET_ENV: '' })).toThrow(ConfigError);
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'production', PAYMENTS_MODE: 'authorizenet' })).toThrow(ConfigError);
  });
  it('stated, or no Authorize.Net, or not production: fine', () => {
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'production', ...keys, AUTHNET_ENV: 'production' })).not.toThrow();
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'production', ...keys, AUTHNET_ENV: 'sandbox' })).not.toThrow();
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'production' })).not.toThrow();
    expect(() => requireAuthnetEnvInProduction({ NODE_ENV: 'development', ...keys })).not.toThrow();
  });
});

describe('passwords are never printed', () => {
  it('redactUrl hides the password of a connection URL, and keeps the rest', () => {
    expect(redactUrl('postgres://shop:s3cr%40t@db.internal:5432/nurture_home')).toBe('postgres://shop:***@db.internal:5432/nurture_home');
    expect(redactUrl('postgres://shop@db.internal/nurture_home')).toBe('postgres://shop@db.internal/nurture_home');
    expect(redactUrl('postgres://db/x?password=hunter22')).not.toContain('hunter22');
  });

  it('redactSecrets hides URLs with credentials and the password itself wherever it appears', () => {
    const url = 'postgres://shop:Tr0ub4dor@db.internal:5432/nurture_home';
    const out = redactSecrets(`connect failed for ${url}; password Tr0ub4dor rejected; redis://:r3dispw@cache:6379 too`, url);
    expect(out).not.toContain('Tr0ub4dor');
    expect(out).not.toContain('r3dispw');
    expect(out).toContain('postgres://shop:***@db.internal:5432/nurture_home');
  });

  it('a migrate that cannot reach PostgreSQL names the address without the password', () => {
    const root = repoRootOf(import.meta.url);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'migrations/src/migrate.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: 'postgres://shop:Sup3rS3cretPw@127.0.0.1:1/nurture_home', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    });
    expect(run.status).toBe(1);
    const printed = `${run.stdout}${run.stderr}`;
    expect(printed).toContain('[migrate] failed: PostgreSQL is unreachable at DATABASE_URL (postgres://shop:***@127.0.0.1:1/nurture_home)');
    expect(printed).not.toContain('Sup3rS3cretPw');
  });
});

describe('Redis 6.2 or newer', () => {
  it('reads the version from INFO server', () => {
    expect(redisVersionProblem('# Server\r\nredis_version:6.0.16\r\n')).toMatch(/Redis 6.0 is too old: the shop needs Redis 6.2 or newer/);
    expect(redisVersionProblem('redis_version:5.0.7\r\n')).toMatch(/too old/);
    expect(redisVersionProblem('redis_version:6.2.14\r\n')).toBeNull();
    expect(redisVersionProblem('redis_version:7.0.15\r\n')).toBeNull();
    expect(redisVersionProblem('redis_version:10.0.0\r\n')).toBeNull();
  });

  it('the local Redis passes the start-up check', async () => {
    const redis = createRedis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
    try {
      await expect(assertRedisVersion(redis)).resolves.toBeUndefined();
    } finally {
      redis.disconnect();
    }
  });
});
