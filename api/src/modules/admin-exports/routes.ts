import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { adminExportRequestSchema } from '@nh/shared/contracts/exports';
import type { AppContext } from '../../context';
import { requireAdmin } from '../../lib/admin-auth';
import { parseInput } from '../../lib/validation';
import { exportDownload, exportStatus, startExport } from './service';

/** Admin: CSV export of a store's orders (start, progress, download). */
export function adminExportRoutes(ctx: AppContext): Router {
  const router = Router();
  const admin = requireAdmin(ctx);

  router.post('/admin/orders/export', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    res.status(202).json(await startExport(ctx, storeCode));
  });

  router.post('/admin/orders/export/:id/status', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    res.set('Cache-Control', 'no-store').json(await exportStatus(ctx, storeCode, String(req.params.id)));
  });

  router.post('/admin/orders/export/:id/download', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    const file = await exportDownload(ctx, storeCode, String(req.params.id));
    res.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Content-Length': String(file.size),
      'Cache-Control': 'no-store',
    });
    await pipeline(fs.createReadStream(file.path), res);
  });

  return router;
}
