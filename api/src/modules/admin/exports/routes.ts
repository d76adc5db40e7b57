import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { adminExportRequestSchema, exportHistoryRequestSchema, startExportRequestSchema } from '@nh/shared/contracts/exports';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { attachmentDisposition, CSV_CONTENT_TYPE, type DownloadAnswer } from '@nh/server/storage';
import { exportDownload, exportHistory, exportStatus, startExport } from './service';

/** A finished export's file: a redirect to the bucket's signed URL, or the file streamed (order and subscription exports). */
export async function sendExportFile(res: Response, fileName: string, answer: DownloadAnswer): Promise<void> {
  res.set('Cache-Control', 'no-store');
  if (answer.kind === 'redirect') {
    res.redirect(302, answer.url);
    return;
  }
  res.status(200).set({ 'Content-Type': CSV_CONTENT_TYPE, 'Content-Disposition': attachmentDisposition(fileName), 'Content-Length': String(answer.file.size) });
  await pipeline(answer.file.body, res);
}

/**
 * CSV export of a store's orders (start with filters, progress, history, download), at
 * /admin/orders/export. The download streams the file from the local folder, or redirects (302) to a
 * short-lived signed URL of the S3 bucket; besides the POST it is a plain GET link (`?storeCode=`), so
 * the browser saves the file itself instead of building a Blob.
 */
export function exportArea(ctx: AppContext, { guard, exportFiles }: AdminDeps): AdminArea[] {
  const router = Router();
  const admin = guard.require('exports.run');
  const { db } = ctx;

  router.post('/', admin, async (req, res) => {
    const { storeCode, ...filters } = parseInput(startExportRequestSchema, req.body);
    res.status(202).json(await startExport(db, storeCode, filters, actorOf(req, res)));
  });

  router.post('/history', admin, async (req, res) => {
    const { storeCode, limit } = parseInput(exportHistoryRequestSchema, req.body);
    res.json(await exportHistory(db, storeCode, limit));
  });

  router.post('/:id/status', admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    res.set('Cache-Control', 'no-store').json(await exportStatus(db, storeCode, String(req.params.id)));
  });

  const download = async (req: Request, res: Response, storeCode: string) => {
    const { fileName, answer } = await exportDownload(db, exportFiles, storeCode, String(req.params.id), actorOf(req, res));
    await sendExportFile(res, fileName, answer);
  };

  router.post('/:id/download', admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, req.body);
    await download(req, res, storeCode);
  });

  router.get('/:id/download', admin, async (req, res) => {
    const { storeCode } = parseInput(adminExportRequestSchema, { storeCode: req.query.storeCode });
    await download(req, res, storeCode);
  });

  return [{ path: '/admin/orders/export', router }];
}
