import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { adminExportRequestSchema } from '@nh/shared/contracts/exports';
import type { AppContext } from '../../../context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../area';
import { exportDownload, exportStatus, startExport } from './service';

/** CSV export of a store's orders (start, progress, download), at /admin/orders/export. */
export function exportArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  const admin = guard.require('exports.run');
  const { db } = ctx;

  router.post('/', admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    res.status(202).json(await startExport(db, storeCode, actorOf(req, res)));
  });

  router.post('/:id/status', admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    res.set('Cache-Control', 'no-store').json(await exportStatus(db, storeCode, String(req.params.id)));
  });

  router.post('/:id/download', admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    const file = await exportDownload(db, storeCode, String(req.params.id), actorOf(req, res));
    res.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Content-Length': String(file.size),
      'Cache-Control': 'no-store',
    });
    await pipeline(fs.createReadStream(file.path), res);
  });

  return [{ path: '/admin/orders/export', router }];
}
