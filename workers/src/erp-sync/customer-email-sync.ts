/**
 * sync-customer-email (erp-sync queue): a customer confirmed a new email address (issue 23; the outbox's
 * `customer.email-changed`, written with the change, beside the notice to the old address): their
 * NetSuite customer record gets the new address, and the new address's external id, so the next order's
 * customer upsert finds the same record instead of making a second customer
 * (`NetSuiteClient.updateCustomerEmail`). Idempotent: the patch sets the same values again, and a retry
 * after the re-keying finds the record under the new key. The customer id cache forgets both keys.
 */
import { Worker, type Job } from 'bullmq';
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { JITTER_BACKOFF } from '@nh/server/jobs/sync-order';
import { findShopperTokenById } from '@nh/server/queries/shopper-self-service';
import { jobDefiner } from '../jobs/define';
import { NetSuiteError, netsuiteExternalIds } from './netsuite/client';
import { redisCustomerIdCache } from './customer-cache';
import type { SyncJobContext } from './processor';

export type CustomerEmailSyncResult = { outcome: 'updated' | 'already' | 'not-found' | 'email-only' } | { outcome: 'skipped'; reason: string };

export const syncCustomerEmailJob = jobDefiner<SyncJobContext>()({
  name: 'sync-customer-email',
  queue: 'erp-sync',
  payload: z.object({ tokenId: z.string().uuid() }),
  options: (config) => ({ attempts: config.ERP_SYNC_ATTEMPTS, backoff: { type: JITTER_BACKOFF, delay: config.ERP_SYNC_BACKOFF_MS } }),
  topics: { [OUTBOX_TOPICS.customerEmailChanged]: ({ tokenId }) => ({ tokenId }) },
  handler: (ctx) => {
    const customers = redisCustomerIdCache(ctx.redis, ctx.config.QUEUE_PREFIX, ctx.log);
    return async function syncCustomerEmail(job: Job, { tokenId }: { tokenId: string }): Promise<CustomerEmailSyncResult> {
      const link = await findShopperTokenById(ctx.db, tokenId);
      if (!link || link.purpose !== 'email_change' || !link.previousEmail) return { outcome: 'skipped', reason: 'no confirmed email change' };
      if (!ctx.netsuite) return { outcome: 'skipped', reason: 'not configured' };
      try {
        const outcome = await ctx.netsuite.updateCustomerEmail(link.previousEmail, link.email);
        await customers.forget(netsuiteExternalIds.customer(link.previousEmail));
        await customers.forget(netsuiteExternalIds.customer(link.email));
        const log = ctx.log.child({ jobId: job.id, queue: 'erp-sync', tokenId });
        if (outcome === 'email-only') log.warn('NetSuite has a customer under the new address too: the old record got the address; finance may merge the two');
        else log.info({ outcome }, 'NetSuite customer email updated');
        return { outcome };
      } catch (error) {
        if (error instanceof NetSuiteError && error.kind === 'rate_limit') {
          await ctx.worker('erp-sync').rateLimit(error.retryAfterMs ?? 1000);
          throw Worker.RateLimitError();
        }
        throw error;
      }
    };
  },
});
