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
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, (db) => cancellationReport(db, from, to)));
  });
  router.get('/sales', guard.require('reports.view'), async (req, res) => {
    const range = parseInput(reportRangeSchema, req.query);
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, (db) => salesReport(db, range)));
  });
  router.get('/top-products', guard.require('reports.view'), async (req, res) => {
    const { limit, ...range } = parseInput(topProductsQuerySchema, req.query);
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, (db) => topProductsReport(db, range, limit)));
  });
  router.get('/customers', guard.require('reports.view'), async (req, res) => {
    const range = parseInput(reportRangeSchema, req.query);
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, (db) => customersReport(db, range)));
  });
  router.get('/revenue-mix', guard.require('reports.view'), async (req, res) => {
    const range = parseInput(reportRangeSchema, req.query);
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, (db) => revenueMixReport(db, range)));
  });
  router.get('/subscriptions', guard.require('reports.view'), async (req, res) => {
    const range = parseInput(reportRangeSchema, req.query);
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, (db) => subscriptionsReport(db, range)));
  });
  router.get('/stock-cover', guard.require('reports.view'), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await reads.read(req, res, stockCoverReport));
  });
  return [{ path: '/admin/reports', router }];
}
