/**
 * A rolling deploy (issue 24): a page an old process served asks for the old build's hashed files; the
 * new image keeps them in WEB_DIST/previous-assets and serves them at /assets/* like its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIOUS_ASSETS_DIR } from '../src/app';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.mkdirSync(path.join(dist, PREVIOUS_ASSETS_DIR));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(dist, 'assets', 'index-NEWhash1.js'), 'console.log("new")');
  fs.writeFileSync(path.join(dist, PREVIOUS_ASSETS_DIR, 'index-OLDhash0.js'), 'console.log("old")');
  fs.writeFileSync(path.join(dist, PREVIOUS_ASSETS_DIR, 'index-NEWhash1.js'), 'console.log("stale copy")');
  api = await startTestApi({ WEB_DIST: dist });
});
afterAll(async () => {
  await api?.close();
});

describe('hashed assets during a rolling deploy', () => {
  it("serves this build's assets, and the previous build's, both immutable", async () => {
    const current = await api.request('/assets/index-NEWhash1.js');
    expect(current.status).toBe(200);
    expect(await current.text()).toBe('console.log("new")'); // this build's copy wins
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const previous = await api.request('/assets/index-OLDhash0.js');
    expect(previous.status).toBe(200);
    expect(await previous.text()).toBe('console.log("old")');
    expect(previous.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('a file neither build has is 404, never the SPA page', async () => {
    const missing = await api.request('/assets/index-NOPE.js', { headers: { accept: 'text/html' } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<div id="root">');
  });
});
