import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { configureShop, SHOP } from '@nh/shared/constants';
import { baseEnvShape, hashTagOf, loadEnv, repoRootOf, requireClusterReadyRedis, shopOverrides } from './env';
import { clusterNodeOptions } from './redis';
import { z } from 'zod';

const original = { ...SHOP };
afterEach(() => Object.assign(SHOP, original));

describe('shop identity from SHOP_* variables', () => {
  it('overrides what is set, keeps the defaults for the rest, and drops a trailing slash of the site URL', () => {
    const env = loadEnv(z.object(baseEnvShape), { SHOP_NAME: 'Green Nest', SHOP_SITE_URL: 'https://shop.example.com/', SHOP_SUPPORT_PHONE: '' });
    configureShop(shopOverrides(env));
    expect(SHOP).toMatchObject({ name: 'Green Nest', siteUrl: 'https://shop.example.com', supportPhone: original.supportPhone, supportEmail: original.supportEmail });
  });

  it('refuses a site URL that is not a URL, naming the variable', () => {
    expect(() => loadEnv(z.object(baseEnvShape), { SHOP_SITE_URL: 'shop.example.com' })).toThrow(/SHOP_SITE_URL/);
  });
});

describe('repoRootOf', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  it('is the folder above the workspace of the module, however deep the module or its bundle sits', () => {
    for (const file of ['api/src/lib/config.ts', 'api/dist/main.js', 'workers/src/lib/config.ts', 'migrations/src/runtime/env.ts']) {
      expect(repoRootOf(pathToFileURL(path.join(root, file)).href), file).toBe(root);
    }
  });
});

describe('QUEUE_PREFIX and REDIS_CLUSTER_NODES (Redis Cluster)', () => {
  const schema = z.object(baseEnvShape).superRefine(requireClusterReadyRedis);
  const load = (env: Record<string, string>) => loadEnv(schema, { NODE_ENV: 'test', ...env });

  it('accepts a plain prefix and one with a single non-empty hash tag', () => {
    for (const prefix of ['nh', 'nh-test_1', 'nh:prod', '{nh}', 'nh:{prod}', '{nh}:x', 'a{b:c}d']) expect(load({ QUEUE_PREFIX: prefix }).QUEUE_PREFIX, prefix).toBe(prefix);
    expect(load({}).QUEUE_PREFIX).toBe('nh');
  });

  it('refuses an empty tag, two tags, an unclosed brace and other characters, naming the rule', () => {
    for (const prefix of ['{}', 'nh:{}', '{a}{b}', '{a}:{b}', '{nh', 'nh}', '{{nh}}', 'n h', 'nh*', 'nh/{x}']) {
      expect(() => load({ QUEUE_PREFIX: prefix }), prefix).toThrow(/QUEUE_PREFIX: must be letters, digits, _, - or : with at most one non-empty hash tag such as \{nh\}/);
    }
  });

  it('hashTagOf answers the tag Redis Cluster hashes', () => {
    expect(hashTagOf('{nh}')).toBe('nh');
    expect(hashTagOf('nh:{prod}:x')).toBe('prod');
    expect(hashTagOf('nh')).toBeNull();
  });

  it('parses the cluster nodes, an IPv6 address in brackets included', () => {
    expect(load({ QUEUE_PREFIX: '{nh}', REDIS_CLUSTER_NODES: ' 10.0.0.5:6379, redis-2.internal:7000 ,[::1]:7001' }).REDIS_CLUSTER_NODES).toEqual([
      { host: '10.0.0.5', port: 6379 },
      { host: 'redis-2.internal', port: 7000 },
      { host: '::1', port: 7001 },
    ]);
    expect(load({ REDIS_CLUSTER_NODES: '' }).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(() => load({ QUEUE_PREFIX: '{nh}', REDIS_CLUSTER_NODES: '10.0.0.5' })).toThrow(/REDIS_CLUSTER_NODES\.0: must be a comma-separated list of host:port/);
  });

  it('with REDIS_CLUSTER_NODES, refuses a prefix without a hash tag (suggesting one) and a database other than 0', () => {
    const nodes = { REDIS_CLUSTER_NODES: '127.0.0.1:7000' };
    expect(() => load({ ...nodes, QUEUE_PREFIX: 'shop' })).toThrow(/QUEUE_PREFIX: must carry a hash tag when REDIS_CLUSTER_NODES is set \(e\.g\. \{shop\}\)/);
    expect(() => load(nodes)).toThrow(/QUEUE_PREFIX: must carry a hash tag/);
    expect(() => load({ ...nodes, QUEUE_PREFIX: '{nh}', REDIS_URL: 'redis://cache.example.com:6379/2' })).toThrow(/REDIS_URL: names database 2, but a Redis Cluster has only database 0/);
    expect(load({ ...nodes, QUEUE_PREFIX: 'nh:{prod}', REDIS_URL: 'rediss://user:pw@cache.example.com:6379/0' }).QUEUE_PREFIX).toBe('nh:{prod}');
  });
});

describe('cluster node options from REDIS_URL', () => {
  it('takes the user, the password (decoded) and TLS from REDIS_URL, nothing else', () => {
    expect(clusterNodeOptions('rediss://shop:p%40ss%3Aword@cache.example.com:6379')).toEqual({ username: 'shop', password: 'p@ss:word', tls: {} });
    expect(clusterNodeOptions('redis://:secret@127.0.0.1:7000')).toEqual({ password: 'secret' });
    expect(clusterNodeOptions('redis://127.0.0.1:6379')).toEqual({});
  });
});
