/**
 * What the queue dashboard shows of real jobs (issue 19): a staff password reset, a staff invitation,
 * a shopper's password reset, a guest's order link, an order and a newsletter sign-up (one of them to
 * an address whose mailbox refuses mail) go through the outbox, the real relay and the real mail
 * worker to a local SMTP server. Then a manager reads every queue's jobs in every state, each job, its
 * logs and the schedulers through the board's own JSON API: no token from any emailed link, no email
 * address, while the ids an operator needs are still there. Below, the redaction rules on their own.
 * The API and the workers share a database and a queue prefix of this file's own.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@nh/server/runtime/queues';
import type { WorkerRuntime } from '../../workers/src/runtime';
import {
  createTestDatabase,
  placeOrder,
  startTestWorkers,
  testWorkerConfig,
  waitFor,
  type TestDatabase,
} from '../../workers/test/support/setup';
import { TestSmtpServer } from '../../workers/test/support/smtp-server';
import { REDACTED, REDACTED_EMAIL, redactBoardAnswer, redactPayload, scrubText } from '../src/modules/admin/queues/redact';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

const STATES = ['latest', 'active', 'waiting', 'waiting-children', 'prioritized', 'completed', 'failed', 'delayed', 'paused'];
/** An email address anywhere in a text (the shop's rule for one: something@something.tld). */
const ANY_EMAIL = /[^\s"'<>@/\\]+@[^\s"'<>@/\\]+\.[a-z]{2,}/i;

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let api: TestApi;
let workers: WorkerRuntime;

beforeAll(async () => {
  tdb = await createTestDatabase('qboard');
  smtp = await new TestSmtpServer().start();
  smtp.rejectPermanently = /^bounce-/;
  const prefix = `qbr-${randomUUID().slice(0, 8)}`;
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: prefix });
  workers = await startTestWorkers(
    testWorkerConfig(tdb.url, 'qboard', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', QUEUE_PREFIX: prefix, SHOP_SITE_URL: api.url }),
  );
}, 60_000);
afterAll(async () => {
  await workers?.close(2000);
  await api?.close();
  await smtp?.close();
  await tdb?.drop();
});

/** Every board answer a manager can read about the jobs, as text. */
async function everythingTheBoardShows(
  manager: StaffClient,
): Promise<{ text: string; jobs: Array<{ queue: string; id: string; data: unknown; returnValue: unknown }> }> {
  const answers: string[] = [];
  const jobs: Array<{ queue: string; id: string; data: unknown; returnValue: unknown }> = [];
  const read = async (path: string) => {
    const res = await manager.request(`/admin/queues/api${path}`);
    expect(res.status, path).toBe(200);
    const text = await res.text();
    answers.push(text);
    return JSON.parse(text) as unknown;
  };
  for (const queue of QUEUE_NAMES) {
    for (const status of STATES) {
      const body = (await read(`/queues?${new URLSearchParams({ activeQueue: queue, status, page: '1', jobsPerPage: '100' })}`)) as {
        queues: Array<{ name: string; jobs: Array<{ id: string; data: unknown; returnValue: unknown }> }>;
      };
      for (const job of body.queues.find((q) => q.name === queue)!.jobs) jobs.push({ queue, ...job });
    }
  }
  for (const { queue, id } of jobs) {
    await read(`/queues/${queue}/${encodeURIComponent(id)}`);
    await read(`/queues/${queue}/${encodeURIComponent(id)}/logs`);
  }
  await read('/job-schedulers');
  return { text: answers.join('\n'), jobs };
}

describe('the queue dashboard shows no secret and no personal data of real jobs', () => {
  it('after resets, an invitation, an order link, an order and newsletter sign-ups, a manager reads no token and no email address', async () => {
    const owner = await signInAs(api, 'owner');
    const manager = await signInAs(api, 'manager');
    const staffMember = await signInAs(api, 'fulfilment');
    const invitee = `invitee-${randomUUID().slice(0, 6)}@staff.test`;
    const shopper = {
      firstName: 'Rachel',
      lastName: 'Carson',
      email: `rachel-${randomUUID().slice(0, 6)}@example.com`,
      password: 'a long shopper password',
    };
    const guest = `guest-${randomUUID().slice(0, 6)}@example.com`;
    const reader = `reader-${randomUUID().slice(0, 6)}@example.com`;
    const bounced = `bounce-${randomUUID().slice(0, 6)}@example.com`;

    expect((await api.request('/api/admin/password-reset', { body: { email: staffMember.email } })).status).toBe(202);
    expect(
      (await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email: invitee, role: 'support' } })).status,
    ).toBe(201);
    expect((await api.request('/api/register', { body: shopper })).status).toBe(201);
    expect((await api.request('/api/password/forgot', { body: { email: shopper.email } })).status).toBe(202);
    const orderId = await placeOrder(tdb.db, { customerEmail: guest, customerName: 'Guest Shopper' });
    expect((await api.request('/api/orders/lookup', { body: { orderNumber: orderId.slice(0, 8), email: guest } })).status).toBe(202);
    for (const email of [reader, bounced]) expect((await api.request('/api/newsletter', { body: { email } })).status).toBe(201);

    // Every email went out (or was refused by the mailbox), and the emails queue is idle.
    const emails = workers.queues.emails;
    const linked = [staffMember.email, invitee, shopper.email, guest];
    await waitFor(() => linked.every((to) => smtp.to(to).some((mail) => /token=/.test(mail.decoded))), 30_000, 'the emails with links');
    await waitFor(async () => ((await emails.getJobCounts('failed')).failed ?? 0) >= 1, 30_000, 'the bounced welcome email to fail');
    await waitFor(
      async () => {
        const counts = await emails.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        return Object.values(counts).every((n) => n === 0);
      },
      30_000,
      'the emails queue to be idle',
    );

    const tokens = linked.flatMap((to) =>
      smtp.to(to).flatMap((mail) => [...mail.decoded.matchAll(/token=([A-Za-z0-9_-]{20,})/g)].map((m) => m[1]!)),
    );
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const addresses = [staffMember.email, invitee, shopper.email, guest, reader, bounced, owner.email, manager.email];
    // What the board has to hide: the jobs as BullMQ keeps them hold message ids that are addresses.
    const completed = await emails.getJobs(['completed']);
    expect(completed.some((job) => ANY_EMAIL.test(JSON.stringify(job.returnvalue)))).toBe(true);

    const { text, jobs } = await everythingTheBoardShows(manager);
    for (const token of tokens) expect(text.includes(token), 'a token from an emailed link').toBe(false);
    for (const address of addresses) expect(text.toLowerCase().includes(address.toLowerCase()), address).toBe(false);
    expect(text.match(ANY_EMAIL)?.[0] ?? null).toBeNull();

    // What still helps an operator: the jobs, their ids and outcomes.
    expect(jobs.filter((j) => j.queue === 'emails').length).toBeGreaterThanOrEqual(7);
    expect(jobs.some((j) => j.queue === 'erp-sync' && (j.data as { orderId?: string }).orderId === orderId)).toBe(true);
    expect(jobs.some((j) => (j.returnValue as { outcome?: string } | null)?.outcome === 'sent')).toBe(true);
    const reset = jobs.find((j) => typeof (j.data as { tokenId?: string }).tokenId === 'string');
    expect((reset?.data as { tokenId: string }).tokenId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the redaction rules', () => {
  it("keeps a payload's ids, numbers, dates and outcome words, and redacts every other string", () => {
    const token = 'A'.repeat(20) + 'b9_-'.repeat(6);
    expect(
      redactPayload({
        tokenId: '0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b',
        token,
        subscriberId: 12,
        email: 'jane@example.com',
        orderIds: ['0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b', 'jane@example.com'],
        netsuiteOrderId: 'SO-1042',
        sessionId: token,
        period: '2025-03-01',
        amount: 2599,
        paused: false,
        outcome: 'skipped',
        reason: 'invitation not found',
        status: 'Sent to jane@example.com',
        messageId: '<0b6e4b1e@mail.nurturehome.test>',
        items: [{ productId: 3, quantity: 2, name: 'Dish Pods' }],
        _trace: {
          requestId: '9f0e1c2d-3e4f-4a6b-8b6e-4b1e6a514b1f',
          traceParent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
        note: null,
      }),
    ).toEqual({
      tokenId: '0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b',
      token: REDACTED,
      subscriberId: 12,
      email: REDACTED,
      orderIds: ['0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b', REDACTED],
      netsuiteOrderId: 'SO-1042',
      sessionId: REDACTED,
      period: '2025-03-01',
      amount: 2599,
      paused: false,
      outcome: 'skipped',
      reason: 'invitation not found',
      status: REDACTED,
      messageId: REDACTED,
      items: [{ productId: 3, quantity: 2, name: REDACTED }],
      _trace: { requestId: '9f0e1c2d-3e4f-4a6b-8b6e-4b1e6a514b1f', traceParent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      note: null,
    });
    expect(redactPayload('jane@example.com')).toBe(REDACTED);
  });

  it("scrubs addresses, token parameters and token-like strings from a text, keeping its words, uuids and a stack trace's paths", () => {
    const token = 'Zx9'.repeat(14) + 'q';
    expect(scrubText(`550 <jane.doe+shop@example.co.uk>: mailbox unavailable for order 0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b`)).toBe(
      `550 <${REDACTED_EMAIL}>: mailbox unavailable for order 0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b`,
    );
    expect(scrubText(`GET https://shop.test/admin/reset-password?token=${token}&x=1 failed`)).toBe(
      `GET https://shop.test/admin/reset-password?token=${REDACTED}&x=1 failed`,
    );
    expect(scrubText(`#token=abc then ${token}`)).toBe(`#token=${REDACTED} then ${REDACTED}`);
    const frame = '    at process (/app/node_modules/@nh/server/dist/queues.js:12:5)';
    expect(scrubText(frame)).toBe(frame);
  });

  it('redacts a whole board answer: payload fields by the payload rule, errors, stack traces, logs and options scrubbed', () => {
    const answer = {
      queues: [
        {
          name: 'emails',
          counts: { completed: 3 },
          jobs: [
            {
              id: 'outbox-7-staff-password-reset',
              name: 'staff-password-reset',
              data: { tokenId: '0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b', token: 'x'.repeat(43) },
              returnValue: { outcome: 'sent', messageId: '<abc@mail.shop.test>' },
              progress: { rowsDone: 10, rowsTotal: 20 },
              failedReason: 'Recipient jane@example.com rejected',
              stacktrace: ['Error: Recipient jane@example.com rejected\n    at send (/app/mail.js:1:1)'],
              opts: { jobId: 'outbox-7-staff-password-reset', attempts: 5 },
            },
          ],
        },
      ],
      logs: ['sending to jane@example.com'],
      schedulers: [{ key: 'daily', template: { data: { email: 'ops@example.com' } } }],
    };
    const shown = redactBoardAnswer(answer) as typeof answer;
    const job = shown.queues[0]!.jobs[0]!;
    expect(job.data).toEqual({ tokenId: '0b6e4b1e-6a51-4b1f-9f0e-1c2d3e4f5a6b', token: REDACTED });
    expect(job.returnValue).toEqual({ outcome: 'sent', messageId: REDACTED });
    expect(job.progress).toEqual({ rowsDone: 10, rowsTotal: 20 });
    expect(job.failedReason).toBe(`Recipient ${REDACTED_EMAIL} rejected`);
    expect(job.stacktrace[0]).toBe(`Error: Recipient ${REDACTED_EMAIL} rejected\n    at send (/app/mail.js:1:1)`);
    expect(job.opts).toEqual(answer.queues[0]!.jobs[0]!.opts);
    expect(shown.queues[0]!.counts).toEqual({ completed: 3 });
    expect(shown.logs).toEqual([`sending to ${REDACTED_EMAIL}`]);
    expect(shown.schedulers[0]!.template.data).toEqual({ email: REDACTED });
    expect(redactBoardAnswer(shown)).toEqual(shown);
  });
});
