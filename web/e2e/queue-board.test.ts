/**
 * The queue dashboard (/admin/queues, bull-board served by the API) in real Chromium (issue 19): it
 * renders under its policy of 'self' only, asks nothing of another host (no web fonts), offers a
 * manager no button that changes a queue while an owner has them, and leads back to the back office.
 * The board is the API's own page, so this file needs no SPA build: the API alone, with a failed job
 * of its own in a queue prefix of this file's own.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Worker } from 'bullmq';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@nh/server/runtime/redis';
import { createQueue } from '@nh/server/runtime/queues';
import { QUEUE_BOARD_MESSAGES } from '@nh/shared/contracts/queue-board';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { signInAs } from '../../api/test/support/staff';
import { CHROMIUM_PATH } from './support/app';
import { poll } from './support/page-helpers';

const PREFIX = `qbe-${randomUUID().slice(0, 8)}`;
let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium`);
  api = await startTestApi({ QUEUE_PREFIX: PREFIX });
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  // A failed job, so the board has a job card with actions to offer (or not).
  const queue = createQueue('maintenance', api.ctx.redis, PREFIX);
  const job = await queue.add('probe', { attempt: 1 }, { attempts: 1 });
  const connection = createRedis(api.ctx.config.REDIS_URL, 'worker');
  const worker = new Worker('maintenance', () => Promise.reject(new Error('probe failed on purpose')), { connection, prefix: PREFIX });
  for (let i = 0; i < 100 && (await job.getState()) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
  await worker.close();
  connection.disconnect();
  await queue.close();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  const queue = createQueue('maintenance', api.ctx.redis, PREFIX);
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  await api?.close();
});

interface Visit {
  page: Page;
  /** The signed-in staff member's email. */
  email: string;
  /** Every URL the page asked for. */
  requests: string[];
  /** Content-Security-Policy violations the page reported. */
  violations: string[];
}

/** A new browser signed in as `role`, on `path` of the board. */
async function visitAs(role: 'owner' | 'manager', path: string): Promise<Visit> {
  const staff = await signInAs(api, role);
  const context = await browser.newContext({ baseURL: api.url, viewport: { width: 1280, height: 900 } });
  const [name, value] = staff.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: api.url, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  const requests: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(path);
  return { page, email: staff.email, requests, violations };
}

describe('the queue dashboard in the browser', () => {
  it('renders from the shop alone under its policy, in system fonts, with the way back to the back office', async () => {
    const { page, requests, violations } = await visitAs('manager', '/admin/queues');
    await poll(() => page.getByText('maintenance', { exact: true }).first().isVisible()).toBe(true);
    await poll(() => page.getByText(QUEUE_BOARD_MESSAGES.title).first().isVisible()).toBe(true);
    expect(requests.filter((url) => new URL(url).origin !== api.url)).toEqual([]);
    expect(violations).toEqual([]);
    const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    expect(font).not.toMatch(/IBM Plex/);
    expect(font).toMatch(/system-ui/);

    // The header's menu of links: "Back office" → /admin.
    const link = page.getByRole('menuitem', { name: QUEUE_BOARD_MESSAGES.backOffice });
    for (const button of await page.locator('header button').all()) {
      await button.click();
      // A menu opens after the click (an animation): wait for it a moment before trying the next button.
      const opened = await link.waitFor({ state: 'visible', timeout: 2000 }).then(
        () => true,
        () => false,
      );
      if (opened) break;
      await page.keyboard.press('Escape');
    }
    await poll(() => link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe('/admin');
    await page.context().close();
  });

  it("offers a manager no button that changes a queue; an owner's board has them", async () => {
    const actions = async (role: 'owner' | 'manager') => {
      const { page, violations } = await visitAs(role, '/admin/queues/queue/maintenance?status=failed');
      await poll(() => page.getByText('probe failed on purpose').first().isVisible()).toBe(true);
      const buttons = (await page.getByRole('button').allTextContents()).map((t) => t.trim()).filter(Boolean);
      expect(violations).toEqual([]);
      await page.context().close();
      return buttons;
    };
    const changing = /^(Retry|Clean|Remove|Promote|Pause|Empty|Add job|Duplicate)/i;
    expect((await actions('manager')).filter((text) => changing.test(text))).toEqual([]);
    expect((await actions('owner')).some((text) => /^Retry/i.test(text))).toBe(true);
  });

  it("carries out an owner's retry from the page (its confirmation under the same policy), audited", async () => {
    const { page, email, violations } = await visitAs('owner', '/admin/queues/queue/maintenance?status=failed');
    await poll(() => page.getByText('probe failed on purpose').first().isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Retry all' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    const queue = createQueue('maintenance', api.ctx.redis, PREFIX);
    await poll(async () => (await queue.getJobCounts('failed')).failed).toBe(0);
    await queue.close();
    const audited = async () =>
      (
        await api.ctx.db.$client.query<{ entity_id: string; after: unknown }>(
          `select entity_id, after from audit_events where action = 'queue.changed' and actor_email = $1`,
          [email],
        )
      ).rows;
    await poll(audited).toEqual([{ entity_id: 'maintenance', after: { operation: 'retry failed' } }]);
    expect(violations).toEqual([]);
    await page.context().close();
  });
});
