import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { configureShop, SHOP } from '@nh/shared/constants';
import { baseEnvShape, loadEnv, repoRootOf, shopOverrides } from './env';
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
