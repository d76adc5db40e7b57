import { Router } from 'express';
import { adminSyncRequestSchema } from '@nh/shared/contracts/admin-sync';
import type { AppContext } from '../../context';
import { requireAdmin } from '../../lib/admin-auth';
import { parseInput } from '../../lib/validation';
import { failedSyncs, retryAllFailed, retryOrder, syncSummary } from './service';

/** Admin: NetSuite sync status and retries (password and store code in the JSON body). */
export function adminSyncRoutes(ctx: AppContext): Router {
  const router = Router();
  const admin = requireAdmin(ctx);

  router.post('/admin/sync/summary', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    res.json(await syncSummary(ctx, storeCode));
  });

  router.post('/admin/sync/failed', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    res.json({ failed: await failedSyncs(ctx, storeCode) });
  });

  router.post('/admin/sync/orders/:id/retry', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    const orderId = String(req.params.id);
    await retryOrder(ctx, storeCode, orderId);
    res.status(202).json({ orderId, netsuiteSyncStatus: 'pending' });
  });

  router.post('/admin/sync/retry-failed', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    res.status(202).json({ retried: await retryAllFailed(ctx, storeCode) });
  });

  return router;
}
