import { describe, expect, it, vi } from 'vitest';

describe('zod-jitless', () => {
  it('turns on the jitless flag zod reads, before zod is loaded, without importing zod', async () => {
    vi.resetModules();
    const global = globalThis as { __zod_globalConfig?: object };
    const saved = global.__zod_globalConfig;
    delete global.__zod_globalConfig;
    try {
      await import('./zod-jitless');
      const { config, globalConfig } = await import('zod/v4/core');
      expect(config().jitless).toBe(true);
      expect(globalConfig.jitless).toBe(true);
    } finally {
      global.__zod_globalConfig = saved;
      vi.resetModules();
    }
  });

  it('no object schema reaches for new Function (the CSP probe) once the flag is on', async () => {
    vi.resetModules();
    await import('./zod-jitless');
    const { z } = await import('zod');
    const spy = vi.spyOn(globalThis, 'Function');
    const schema = z.object({ a: z.string(), b: z.number() });
    expect(schema.parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
