import { Router } from 'express';
import { adminSyncRequestSchema, retryFailedRequestSchema } from '@nh/shared/contracts/admin-sync';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { lazyQueue } from './queue';
import { failedCreditSyncs, failedSyncs, orderSyncAttempts, retryAllFailed, retryCreditSync, retryOrder, syncSummary } from './service';

/** NetSuite sync status, retries and an order's ledger (the store code in the JSON body). */
export function syncArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  const admin = guard.require('sync.manage');
  // The ledger is shown on the order: whoever may view orders may read it.
  const orderViewer = guard.require('orders.view');
  const { db } = ctx;
  const erpSyncQueue = lazyQueue(ctx, 'erp-sync');

  router.post('/summary', admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    res.json(await syncSummary({ db, erpSyncQueue }, storeCode));
  });

  router.post('/failed', admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    res.json({ failed: await failedSyncs(db, storeCode) });
  });

  router.post('/orders/:id/attempts', orderViewer, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    res.json(await orderSyncAttempts(db, storeCode, String(req.params.id)));
  });

  router.post('/orders/:id/retry', admin, async (req, res) => {
    const { storeCode } = parseInput(adminSyncRequestSchema, req.body);
    const orderId = String(req.params.id);
    await retryOrder(db, storeCode, orderId, actorOf(req, res));
    res.status(202).json({ orderId, netsuiteSyncStatus: 'pending' });
  });

  router.post('/retry-failed', admin, async (req, res) => {
    const { storeCode, orderIds } = parseInput(retryFailedRequestSchema, req.body);
    res.status(202).json({ retried: await retryAllFailed(db, storeCode, actorOf(req, res), orderIds) });
  });

  // Store-credit movements (grants, refunds to credit, expiries): shop-wide, no store code.
  router.post('/store-credit/failed', admin, async (_req, res) => {
    res.json({ failed: await failedCreditSyncs(db) });
  });

  router.post('/store-credit/:entryId/retry', admin, async (req, res) => {
    const entryId = String(req.params.entryId);
    await retryCreditSync(db, entryId, actorOf(req, res));
    res.status(202).json({ entryId, status: 'pending' });
  });

  return [{ path: '/admin/sync', router }];
}
