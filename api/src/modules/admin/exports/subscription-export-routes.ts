import { Router, type Request, type Response } from 'express';
import { adminExportRequestSchema, exportHistoryRequestSchema } from '@nh/shared/contracts/exports';
import { startSubscriptionExportRequestSchema } from '@nh/shared/contracts/subscription-export';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { sendExportFile } from './routes';
import { exportDownload, exportHistory, exportStatus, startExport } from './service';
import { SUBSCRIPTION_EXPORTS } from './subscription-export';

/**
 * CSV export of a store's plans (issue 21) at /admin/subscriptions/export (exports.run, as the order
 * export): start (optionally one status), status, history and download, each as the order export's.
 */
export function subscriptionExportArea(ctx: AppContext, { guard, exportFiles }: AdminDeps): AdminArea[] {
  const router = Router();
  const allowed = guard.require('exports.run');
  const { db } = ctx;

  router.post('/', allowed, async (req, res) => {
    const { storeCode, ...filters } = parseInput(startSubscriptionExportRequestSchema, req.body);
    res.status(202).json(await startExport(db, storeCode, filters, actorOf(req, res), SUBSCRIPTION_EXPORTS));
  });
  router.post('/history', allowed, async (req, res) => {
    const { storeCode, limit } = parseInput(exportHistoryRequestSchema, req.body);
    res.json(await exportHistory(db, storeCode, limit, SUBSCRIPTION_EXPORTS));
  });
  router.post('/:id/status', allowed, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    res.set('Cache-Control', 'no-store').json(await exportStatus(db, storeCode, String(req.params.id), SUBSCRIPTION_EXPORTS));
  });

  const download = async (req: Request, res: Response, storeCode: string) => {
    const { fileName, answer } = await exportDownload(db, exportFiles, storeCode, String(req.params.id), actorOf(req, res), SUBSCRIPTION_EXPORTS.kind);
    await sendExportFile(res, fileName, answer);
  };
  router.post('/:id/download', allowed, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    await download(req, res, storeCode);
  });
  router.get('/:id/download', allowed, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, { storeCode: req.query.storeCode });
    await download(req, res, storeCode);
  });

  return [{ path: '/admin/subscriptions/export', router }];
}
