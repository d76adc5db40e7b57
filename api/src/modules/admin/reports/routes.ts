import { Router } from 'express';
import { cancellationReportQuerySchema } from '@nh/shared/contracts/cancellation';
import { reportRangeSchema, topProductsQuerySchema } from '@nh/shared/contracts/admin-reports';
import type { AppContext } from '../../../lib/context';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { cancellationReport } from './cancellations';
import { customersReport, revenueMixReport, salesReport, topProductsReport } from './sales';
import { stockCoverReport } from './stock-cover';
import { subscriptionsReport } from './subscriptions';

/**
 * The reports (managers and owners, reports.view), each `?from&to` (yyyy-mm-dd, UTC, both included):
 * GET /api/admin/reports/cancellations (issue 22); sales, top-products, customers, revenue-mix, subscriptions (issue 23); stock-cover (no range: the next 30 days).
 */
export function reportArea(_ctx: AppContext, { guard, reads }: AdminDeps): AdminArea[] {
  const router = Router();
  router.get('/cancellations', guard.require('reports.view'), async (req, res) => {
    const { from, to } = parseInput(cancellationReportQuerySchema, req.query);
    res.set('Cache-Control', 'no-store').json(await cancellationReport(reads.dbFor(req, res), from, to));
  });
  router.get('/sales', guard.require('reports.view'), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await salesReport(reads.dbFor(req, res), parseInput(reportRangeSchema, req.query)));
  });
  router.get('/top-products', guard.require('reports.view'), async (req, res) => {
    const { limit, ...range } = parseInput(topProductsQuerySchema, req.query);
    res.set('Cache-Control', 'no-store').json(await topProductsReport(reads.dbFor(req, res), range, limit));
  });
  router.get('/customers', guard.require('reports.view'), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await customersReport(reads.dbFor(req, res), parseInput(reportRangeSchema, req.query)));
  });
  router.get('/revenue-mix', guard.require('reports.view'), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await revenueMixReport(reads.dbFor(req, res), parseInput(reportRangeSchema, req.query)));
  });
  router.get('/subscriptions', guard.require('reports.view'), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await subscriptionsReport(reads.dbFor(req, res), parseInput(reportRangeSchema, req.query)));
  });
  router.get('/stock-cover', guard.require('reports.view'), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await stockCoverReport(reads.dbFor(req, res)));
  });
  return [{ path: '/admin/reports', router }];
}
