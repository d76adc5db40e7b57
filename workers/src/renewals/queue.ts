/** The renewals queue: the daily sweep, the renew jobs it adds, and the stored cards' expiry lookups. */
import { defineQueue } from '../jobs/define';
import { recordCardExpiryJob } from './card-expiry';
import { renewSubscriptionJob } from './renew';
import { addMissedSweep, renewalSweepJob } from './sweep';

export const renewalsQueue = defineQueue({
  name: 'renewals',
  jobs: [renewalSweepJob, renewSubscriptionJob, recordCardExpiryJob],
  worker: (config) => ({ concurrency: config.RENEWAL_CONCURRENCY }),
  setup: async (queue, { redis, log }) => {
    const missed = await addMissedSweep({ queue, redis });
    if (missed) log.warn({ jobId: missed }, 'the last scheduled renewal sweep did not complete: one sweep added now');
  },
});
