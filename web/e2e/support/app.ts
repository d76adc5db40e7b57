/**
 * Browser-test harness: the real API (real Postgres test database and Redis from the vitest
 * globalSetup) serving the built SPA, and Debian's Chromium driven by playwright-core.
 * Build the SPA first (`npm run build:web`; `npm test` does it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../../../api/test/support/harness';
import { REPO_ROOT } from '../../../api/src/lib/config';
import type { AppServices } from '../../../api/src/modules';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless Chromium on a machine with no network beyond loopback. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface E2eApp {
  url: string;
  api: TestApi;
  browser: Browser;
  /** A fresh browser context (own storage and cookies) with baseURL set, and a page in it. */
  newPage: (options?: { viewport?: { width: number; height: number } }) => Promise<Page>;
  close: () => Promise<void>;
}

/** `options.services`: some of the API's services replaced (e.g. a tax calculator of the test's own). */
export async function startE2eApp(env: Record<string, string> = {}, options: { services?: Partial<AppServices> } = {}): Promise<E2eApp> {
  const webDist = path.join(REPO_ROOT, 'web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error('web/dist is missing: run `npm run build:web` first');
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium`);

  const api = await startTestApi({ WEB_DIST: webDist, ...env }, options);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  return {
    url: api.url,
    api,
    browser,
    newPage: async (options = {}) => {
      const context = await browser.newContext({ baseURL: api.url, viewport: options.viewport ?? { width: 1280, height: 900 } });
      contexts.push(context);
      return untilAppReady(await context.newPage());
    },
    close: async () => {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await api.close();
    },
  };
}

/**
 * A server-rendered page shows its markup before the app has taken it over, and a click then does
 * nothing (a menu that does not open). `page.goto`, `page.reload` and `page.waitForURL` here return once
 * the app has committed its first render (`<html data-app-ready>`, set by AppProviders), as a person's
 * click lands after the page is live; `waitForURL` matters after a form the server answers with a
 * redirect (signing in), which loads a new page without `goto`. Pages that are not the app's (an API
 * answer, a file, the API's sign-in page) return at once.
 */
function untilAppReady(page: Page): Page {
  const appReady = () => page.waitForFunction(() => !document.getElementById('root') || document.documentElement.dataset.appReady === 'true');
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await appReady();
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await appReady();
    return response;
  };
  const waitForURL = page.waitForURL.bind(page);
  page.waitForURL = async (url, options) => {
    await waitForURL(url, options);
    await appReady();
  };
  return page;
}
