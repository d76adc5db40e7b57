/**
 * Work a request answers before it is done (lib/after-answer.ts: reset requests, a guest's order
 * lookup): its failure is logged as an error with the request's id, never lost silently, and
 * `settled()` (the API's drain) waits for it.
 */
import { describe, expect, inject, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@nh/shared/contracts/account';
import { STAFF_MESSAGES } from '@nh/shared/contracts/staff';
import { createAfterAnswer } from '../src/lib/after-answer';
import { startTestApi } from './support/harness';
import { captureLog } from './support/log-capture';

describe('work done after the answer', () => {
  it('logs a failure as an error with the request id: a reset request and a lookup whose database is gone still answer 202', async () => {
    const { lines, log } = captureLog();
    const gone = new URL(inject('databaseUrl'));
    gone.pathname = '/nh_no_such_database';
    const broken = await startTestApi({ DATABASE_URL: gone.toString() }, { log });
    try {
      const requests = [
        {
          path: '/api/password/forgot',
          body: { email: 'someone@example.com' },
          message: ACCOUNT_MESSAGES.resetSent,
          what: 'password reset request',
        },
        {
          path: '/api/admin/password-reset',
          body: { email: 'someone@staff.test' },
          message: STAFF_MESSAGES.resetSent,
          what: 'staff password reset request',
        },
        {
          path: '/api/orders/lookup',
          body: { orderNumber: '12345678', email: 'someone@example.com' },
          message: ACCOUNT_MESSAGES.lookupSent,
          what: 'order lookup',
        },
      ];
      for (const [i, r] of requests.entries()) {
        const res = await broken.request(r.path, { body: r.body, headers: { 'x-request-id': `after-answer-${i}` } });
        expect(res.status).toBe(202);
        expect(await res.json()).toEqual({ message: r.message });
      }
      await broken.services.afterAnswer.settled();
      for (const [i, r] of requests.entries()) {
        expect(lines).toContainEqual(
          expect.objectContaining({
            level: 50,
            reqId: `after-answer-${i}`,
            msg: `${r.what} failed after the request was answered`,
            err: expect.anything(),
          }),
        );
      }
    } finally {
      await broken.close();
    }
  });

  it('settles once every piece of work has finished, also work started meanwhile', async () => {
    const after = createAfterAnswer();
    const { lines, log } = captureLog();
    const done: string[] = [];
    after.run(log, 'first', async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done.push('first');
      after.run(log, 'second', async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        done.push('second');
      });
    });
    await after.settled();
    expect(done).toEqual(['first', 'second']);
    expect(lines).toEqual([]);
  });
});
