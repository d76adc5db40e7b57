/**
 * maintenance: store credit expiry (issue 23; docs/decisions/store-credit.md, "Expiry"). Daily; expires
 * what is left of each goodwill grant whose `expires_at` has come, one account per transaction under its
 * balance row's lock (@nh/server queries/store-credit-expiry). A run that dies part-way is finished by
 * the next one; a second run finds nothing left (or the same references) and expires nothing twice.
 * Each `expire` row tells NetSuite through the ledger's outbox trigger (the liability released).
 */
import { z } from 'zod';
import { accountsWithDueCredit, expireDueCredit } from '@nh/server/queries/store-credit-expiry';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import { defineJob } from '../jobs/define';

export interface CreditExpiryResult {
  accounts: number;
  /** Cents written off by this run. */
  expired: number;
}

export function createStoreCreditExpiryProcessor({ db, log, now = () => new Date() }: { db: Db; log: Logger; now?: () => Date }) {
  return async (): Promise<CreditExpiryResult> => {
    const at = now();
    let accounts = 0;
    let expired = 0;
    for (const userId of await accountsWithDueCredit(db.$client, at)) {
      const cents = await expireDueCredit(db.$client, userId, at);
      if (cents > 0) {
        accounts++;
        expired += cents;
      }
    }
    if (accounts > 0) log.info({ accounts, expiredCents: expired }, 'store credit expired');
    return { accounts, expired };
  };
}

export const storeCreditExpiryJob = defineJob({
  name: 'store-credit-expiry',
  queue: 'maintenance',
  payload: z.object({}).passthrough(),
  schedule: { id: 'maintenance-store-credit-expiry', pattern: '23 4 * * *' },
  handler: ({ db, log }) => createStoreCreditExpiryProcessor({ db, log }),
});
