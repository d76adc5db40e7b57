import { Router } from 'express';
import { cancellationReportQuerySchema } from '@nh/shared/contracts/cancellation';
import type { AppContext } from '../../../lib/context';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { cancellationReport } from './cancellations';

/** GET /api/admin/reports/cancellations?from&to (yyyy-mm-dd, UTC): managers and owners (reports.view). */
export function reportArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  router.get('/cancellations', guard.require('reports.view'), async (req, res) => {
    const { from, to } = parseInput(cancellationReportQuerySchema, req.query);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await cancellationReport(ctx.db, from, to));
  });
  return [{ path: '/admin/reports', router }];
}
