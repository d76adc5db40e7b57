/** The renewals queue: the daily sweep and the renew jobs it adds. */
import { defineQueue } from '../jobs/define';
import { renewSubscriptionJob } from './renew';
import { addMissedSweep, renewalSweepJob } from './sweep';

export const renewalsQueue = defineQueue({
  name: 'renewals',
  jobs: [renewalSweepJob, renewSubscriptionJob],
  worker: (config) => ({ concurrency: config.RENEWAL_CONCURRENCY }),
  setup: async (queue, { redis, log }) => {
    const missed = await addMissedSweep({ queue, redis });
    if (missed) log.warn({ jobId: missed }, 'the last scheduled renewal sweep did not complete: one sweep added now');
  },
});
