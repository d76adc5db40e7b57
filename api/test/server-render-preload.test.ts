/**
 * The API loads the server render before it listens (main.ts, preloadServerRender): compiling the bundle
 * must not land on the first requests a new process answers. A stand-in bundle whose top level takes a
 * while (as compiling the real one does) shows the preload waits for it, and the renderer then uses
 * that one load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { entryServerPath, preloadServerRender, serverRender } from '../src/modules/seo/server-render';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-ssr-preload-'));
const webDist = path.join(dir, 'dist');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const loads = () => (globalThis as { __nhPreloadTest?: { evaluated: number; done: boolean } }).__nhPreloadTest;

describe('the server render is loaded before the API listens', () => {
  it('preloadServerRender resolves once the bundle has been evaluated, and the renderer reuses that load', async () => {
    const file = entryServerPath(webDist);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `const state = (globalThis.__nhPreloadTest ??= { evaluated: 0, done: false });
       state.evaluated += 1;
       await new Promise((resolve) => setTimeout(resolve, 200));
       state.done = true;
       export async function render() { throw new Error('not rendered in this test'); }`,
    );
    const log = createLogger('api-test', 'silent');
    await preloadServerRender(webDist, log);
    expect(loads()).toEqual({ evaluated: 1, done: true });
    serverRender(webDist, log);
    await preloadServerRender(webDist, log);
    expect(loads()?.evaluated).toBe(1);
  });

  it('a build without the server render preloads nothing and does not fail', async () => {
    await expect(preloadServerRender(path.join(dir, 'no-build', 'dist'), createLogger('api-test', 'silent'))).resolves.toBeUndefined();
  });
});
