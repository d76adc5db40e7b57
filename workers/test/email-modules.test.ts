import { describe, expect, it } from 'vitest';
import { EMAIL_KINDS } from '@nh/shared/contracts/emails';
import { emailsQueue, loadEmailJobs } from '../src/emails/queue';

describe('the emails queue, from EMAIL_KINDS', () => {
  it('has one job per kind, from its module ./<kind>.ts, named as its kind', () => {
    expect(emailsQueue.jobs.map((job) => job.name)).toEqual(Object.keys(EMAIL_KINDS));
  });

  it('refuses to start for a kind without its module, a module without its `email`, or an email named otherwise', async () => {
    await expect(loadEmailJobs(['no-such-email'])).rejects.toThrow('email "no-such-email": its module ./no-such-email.ts could not be loaded');
    await expect(loadEmailJobs(['order-shipped'], () => import('../src/emails/define-email'))).rejects.toThrow(
      'email "order-shipped": ./order-shipped.ts exports no `email` made by defineEmail',
    );
    await expect(loadEmailJobs(['order-shipped'], () => import('../src/emails/order-confirmation'))).rejects.toThrow(
      'email "order-shipped": ./order-shipped.ts names its email "order-confirmation"',
    );
  });
});
