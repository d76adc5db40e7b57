/**
 * The queue dashboard at /admin/queues: signed-in owners and managers only (a page saying so for
 * others), every queue listed, managers read-only and refused every change, owners' changes audited,
 * nobody adding jobs or editing a job's data, and a page that loads everything from the shop.
 * What the board shows of real jobs is tested in queue-board-redaction.test.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker, type Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@nh/server/runtime/redis';
import { createQueue } from '@nh/server/runtime/queues';
import { QUEUE_BOARD_MESSAGES } from '@nh/shared/contracts/queue-board';
import { queueActionOf, writesJobData } from '../src/modules/admin/queues/board';
import { readBoardBundle } from '../src/modules/admin/queues/pages';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const PREFIX = `qb-${randomUUID().slice(0, 8)}`;
let api: TestApi;
let manager: StaffClient;
let owner: StaffClient;
let maintenance: Queue;

beforeAll(async () => {
  api = await startTestApi({ QUEUE_PREFIX: PREFIX });
  manager = await signInAs(api, 'manager');
  owner = await signInAs(api, 'owner');
  maintenance = createQueue('maintenance', api.ctx.redis, PREFIX);
});
afterAll(async () => {
  await maintenance.obliterate({ force: true }).catch(() => {});
  await maintenance.close();
  await api.close();
});

const html = { accept: 'text/html' };

/** The queue.changed audit rows of one staff member (written just after the board answered). */
async function queueAudit(actor: StaffClient): Promise<Array<{ entityId: string; after: { operation: string } }>> {
  const res = await owner.request(`/api/admin/audit?${new URLSearchParams({ action: 'queue.changed', actor: actor.email })}`);
  return ((await res.json()) as { entries: Array<{ entityId: string; after: { operation: string } }> }).entries;
}

async function untilAudited(actor: StaffClient, count: number) {
  for (let i = 0; i < 40; i++) {
    const entries = await queueAudit(actor);
    if (entries.length >= count) return entries;
    await new Promise((r) => setTimeout(r, 50));
  }
  return queueAudit(actor);
}

/** A failed job of its own in the maintenance queue (a real worker fails it once, then stops). */
async function failedJob(): Promise<string> {
  const job = await maintenance.add('probe', { attempt: 1 }, { attempts: 1 });
  const connection = createRedis(api.ctx.config.REDIS_URL, 'worker');
  const worker = new Worker(
    'maintenance',
    async () => {
      throw new Error('probe failed on purpose');
    },
    { connection, prefix: PREFIX, autorun: true },
  );
  try {
    for (let i = 0; i < 100 && (await job.getState()) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await worker.close();
    connection.disconnect();
  }
  expect(await job.getState()).toBe('failed');
  return job.id!;
}

describe('who sees the queue dashboard', () => {
  it('sends a signed-out visitor to the sign-in, opens for a manager, and answers support with a page in the shop look', async () => {
    const out = await fetch(`${api.url}/admin/queues`, { redirect: 'manual', headers: html });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/admin');

    const page = await manager.request('/admin/queues', { headers: html });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Nurture Home queues');

    const support = await signInAs(api, 'support');
    const refused = await support.request('/admin/queues', { headers: html });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    const body = await refused.text();
    expect(body).toContain(QUEUE_BOARD_MESSAGES.noAccessTitle);
    expect(body).toContain(QUEUE_BOARD_MESSAGES.noAccess('Support'));
    expect(body).toContain(`<a class="nh-button" href="/admin">${QUEUE_BOARD_MESSAGES.backToBackOffice}</a>`);
    expect(body).toContain('href="/admin/queues/shop/board.css"');
    expect(body).not.toMatch(/<script|style=|<style/);
    expect((await support.request('/admin/queues/shop/board.css')).status).toBe(200);

    // The board's own API calls keep JSON answers.
    const api403 = await support.request('/admin/queues/api/queues');
    expect(api403.status).toBe(403);
    expect(await api403.json()).toMatchObject({ code: 'STAFF_FORBIDDEN' });
    const api401 = await api.request('/admin/queues/api/queues');
    expect(api401.status).toBe(401);
    expect(await api401.json()).toMatchObject({ code: 'STAFF_SIGN_IN_REQUIRED' });
  });

  it("lists every queue through the board's API: read-only for a manager, with actions for an owner", async () => {
    const flags = async (client: StaffClient) => {
      const res = await client.request('/admin/queues/api/queues');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-powered-by')).toBeNull();
      return ((await res.json()) as { queues: Array<{ name: string; readOnlyMode: boolean; allowRetries: boolean }> }).queues;
    };
    const seen = await flags(manager);
    expect(seen.map((q) => q.name).sort()).toEqual(['emails', 'erp-sync', 'exports', 'maintenance', 'renewals']);
    expect(seen.every((q) => q.readOnlyMode && !q.allowRetries)).toBe(true);
    expect((await flags(owner)).every((q) => !q.readOnlyMode && q.allowRetries)).toBe(true);
  });
});

describe('changes on the board', () => {
  it("refuses a manager's retry, promote, remove, clean and pause, and audits none of them", async () => {
    const failed = await failedJob();
    const delayed = await maintenance.add('probe', { attempt: 2 }, { delay: 3_600_000 });
    const attempts = [
      ['PUT', `/admin/queues/api/queues/maintenance/${failed}/retry`],
      ['PUT', '/admin/queues/api/queues/maintenance/retry/failed'],
      ['PUT', `/admin/queues/api/queues/maintenance/${delayed.id}/promote`],
      ['PUT', `/admin/queues/api/queues/maintenance/${delayed.id}/clean`],
      ['PUT', '/admin/queues/api/queues/maintenance/clean/completed'],
      ['PUT', '/admin/queues/api/queues/pause'],
      ['PUT', '/admin/queues/api/queues/maintenance/empty'],
    ] as const;
    for (const [method, path] of attempts) {
      const res = await manager.request(path, { method });
      expect(res.status, path).toBe(403);
      // Also the words bull-board's page shows over a refusal.
      expect(await res.json(), path).toMatchObject({
        code: 'STAFF_FORBIDDEN',
        message: expect.stringContaining('(Manager)'),
        error: QUEUE_BOARD_MESSAGES.refused,
      });
    }
    expect(await maintenance.getJobState(failed)).toBe('failed');
    expect(await delayed.getState()).toBe('delayed');
    expect(await maintenance.isPaused()).toBe(false);
    // An owner's change is audited just after it (below); by then a manager's would be too.
    expect((await owner.request('/admin/queues/api/queues/erp-sync/retry/failed', { method: 'PUT' })).status).toBe(200);
    await untilAudited(owner, 1);
    expect(await queueAudit(manager)).toEqual([]);
  });

  it("carries out an owner's retry, promote and remove, and audits each once it succeeded", async () => {
    const failed = await failedJob();
    const delayed = await maintenance.add('probe', { attempt: 3 }, { delay: 3_600_000 });
    const removed = await maintenance.add('probe', { attempt: 4 }, { delay: 3_600_000 });
    const before = (await queueAudit(owner)).length;
    for (const path of [`maintenance/${failed}/retry`, `maintenance/${delayed.id}/promote`, `maintenance/${removed.id}/clean`]) {
      const res = await owner.request(`/admin/queues/api/queues/${path}`, { method: 'PUT' });
      expect(res.status, path).toBe(204);
    }
    expect(await maintenance.getJobState(failed)).toBe('waiting');
    expect(await delayed.getState()).toBe('waiting');
    expect(await maintenance.getJob(removed.id!)).toBeUndefined();
    const entries = await untilAudited(owner, before + 3);
    expect(
      entries
        .slice(0, 3)
        .map((e) => [e.entityId, e.after.operation])
        .sort(),
    ).toEqual(
      [
        [`maintenance/${failed}`, 'retry'],
        [`maintenance/${delayed.id}`, 'promote'],
        [`maintenance/${removed.id}`, 'clean'],
      ].sort(),
    );
  });

  it("adds no job and edits no job's data by hand, not even for an owner", async () => {
    const job = await maintenance.add('probe', { attempt: 5 }, { delay: 3_600_000 });
    for (const [method, path, body] of [
      ['POST', '/admin/queues/api/queues/maintenance/add', { name: 'probe', data: { attempt: 6 } }],
      ['PATCH', `/admin/queues/api/queues/maintenance/${job.id}/update-data`, { data: { attempt: 7 } }],
    ] as const) {
      const res = await owner.request(path, { method, body });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({
        code: 'QUEUE_JOB_DATA_READ_ONLY',
        message: QUEUE_BOARD_MESSAGES.jobDataReadOnly,
        error: QUEUE_BOARD_MESSAGES.refused,
      });
    }
    expect((await maintenance.getJob(job.id!))?.data).toEqual({ attempt: 5 });
    expect(await maintenance.getJobCounts('waiting', 'delayed')).toMatchObject({ waiting: expect.any(Number) });
    expect((await maintenance.getJobs(['waiting', 'delayed'])).some((j) => (j.data as { attempt?: number }).attempt === 6)).toBe(false);
  });

  it('refuses a change posted from another site', async () => {
    const res = await owner.request('/admin/queues/api/queues/emails/retry/failed', {
      method: 'PUT',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
  });

  it('names what each board call changed, and which calls write job data', () => {
    expect(queueActionOf('GET', '/api/queues')).toBeNull();
    expect(queueActionOf('PUT', '/api/queues/emails/retry/failed')).toEqual({ entityId: 'emails', operation: 'retry failed' });
    expect(queueActionOf('PUT', '/api/queues/erp-sync/abc123/promote')).toEqual({ entityId: 'erp-sync/abc123', operation: 'promote' });
    expect(queueActionOf('PUT', '/api/queues/exports/clean/completed')).toEqual({ entityId: 'exports', operation: 'clean completed' });
    expect(queueActionOf('PUT', '/api/queues/pause')).toEqual({ entityId: 'all queues', operation: 'pause' });
    expect(queueActionOf('PATCH', '/api/queues/emails/7/update-data')).toEqual({ entityId: 'emails/7', operation: 'update-data' });
    expect(writesJobData('POST', '/api/queues/emails/add')).toBe(true);
    expect(writesJobData('PATCH', '/api/queues/emails/7/update-data')).toBe(true);
    expect(writesJobData('PUT', '/api/queues/emails/7/retry')).toBe(false);
    // Express (and so bull-board) matches paths in any case: every spelling is audited and refused alike.
    expect(queueActionOf('PUT', '/API/Queues/emails/RETRY/failed')).toEqual({ entityId: 'emails', operation: 'retry failed' });
    expect(queueActionOf('PUT', '/Api/queues/erp-sync/abc123/Promote')).toEqual({ entityId: 'erp-sync/abc123', operation: 'promote' });
    expect(writesJobData('POST', '/API/QUEUES/emails/ADD')).toBe(true);
    expect(writesJobData('PATCH', '/api/Queues/emails/7/Update-Data')).toBe(true);
  });
});

describe("the board's page", () => {
  /** Every source of a Content-Security-Policy header, by directive. */
  const policy = (res: Response) =>
    Object.fromEntries(
      (res.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...sources]) => [name!, sources]),
    );
  /** Every URL a document or a stylesheet refers to. */
  const referencesOf = (text: string) => [
    ...[...text.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((m) => m[1]!),
    ...[...text.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/@import\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!),
  ];
  const isShops = (url: string) => !/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('data:');

  it('refers to no other host in its HTML and stylesheets, and has the way back to the back office', async () => {
    const page = await manager.request('/admin/queues', { headers: html });
    const text = await page.text();
    expect(text).not.toMatch(/googleapis|gstatic|\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    const references = referencesOf(text);
    expect(references.filter((url) => !isShops(url) || url.startsWith('//'))).toEqual([]);
    // Nothing inline for the policy to refuse: the only script element is bull-board's JSON configuration.
    expect(text).not.toMatch(/style=|<style/);
    expect([...text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script id="__UI_CONFIG__" type="application/json">',
    ]);
    const config = JSON.parse(text.match(/<script id="__UI_CONFIG__" type="application\/json">([^<]*)<\/script>/)![1]!) as {
      miscLinks: unknown;
    };
    expect(config.miscLinks).toEqual([{ text: QUEUE_BOARD_MESSAGES.backOffice, url: '/admin' }]);

    const stylesheets = references.filter((url) => url.endsWith('.css'));
    expect(stylesheets).toContain('shop/board.css');
    for (const sheet of stylesheets) {
      const res = await manager.request(`/admin/queues/${sheet}`);
      expect(res.status, sheet).toBe(200);
      const css = await res.text();
      expect(/googleapis|gstatic|@font-face/.test(css), sheet).toBe(false);
      expect(
        referencesOf(css).filter((url) => !isShops(url) || url.startsWith('//')),
        sheet,
      ).toEqual([]);
    }
    for (const script of references.filter((url) => url.endsWith('.js')))
      expect((await manager.request(`/admin/queues/${script}`)).status, script).toBe(200);
    // The shop's stylesheet comes last and puts the board in system fonts (bull-board's names IBM Plex first).
    expect(stylesheets.at(-1)).toBe('shop/board.css');
    expect(await (await manager.request('/admin/queues/shop/board.css')).text()).toMatch(/--font-sans: ui-sans-serif, system-ui/);
  });

  it('stops at start on a bull-board whose page lists its assets in a way the shop does not know', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-board-'));
    try {
      fs.mkdirSync(path.join(dir, 'dist'));
      fs.writeFileSync(path.join(dir, 'dist/index.ejs'), '<html><head><link rel="stylesheet" href="/assets/app.css"></head></html>');
      expect(() => readBoardBundle(dir)).toThrow(/lists no stylesheet or script/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is served under a policy of the shop alone: scripts, styles and fonts from itself, nothing inline', async () => {
    const support = await signInAs(api, 'support');
    for (const res of [
      await manager.request('/admin/queues', { headers: html }),
      await manager.request('/admin/queues/queue/emails', { headers: html }),
      await manager.request('/admin/queues/api/queues'),
      await support.request('/admin/queues', { headers: html }),
    ]) {
      const directives = policy(res);
      expect(directives['script-src']).toEqual(["'self'"]);
      expect(directives['style-src']).toEqual(["'self'"]);
      expect(directives['font-src']).toEqual(["'self'"]);
      expect(directives['default-src']).toEqual(["'self'"]);
      const sources = Object.values(directives).flat();
      expect(sources.filter((s) => !["'self'", "'none'", 'data:'].includes(s))).toEqual([]);
    }
  });
});
