import { Router } from 'express';
import { bulkSwapRequestSchema, bulkSwapRunsQuerySchema } from '@nh/shared/contracts/bulk-swap';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import { priceList } from '../../catalog';
import type { AdminArea, AdminDeps } from '../shared/area';
import { bulkSwap, bulkSwapRun, bulkSwapRuns, type ProductLookup } from './bulk-swap';

/**
 * Bulk swap at /admin/subscriptions/bulk-swap (subscriptions.bulkSwap: managers and owners): POST the
 * swap (a dry run answers 200 with the count and customers, the real run 202 with the run), GET /runs
 * (newest first) and /runs/{id} for the progress.
 */
export function bulkSwapArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  const allowed = guard.require('subscriptions.bulkSwap');
  const { db } = ctx;
  const lookUp: ProductLookup = (ids) => priceList(ctx).get(ids, { fresh: true });

  router.post('/', allowed, async (req, res) => {
    const answer = await bulkSwap(db, lookUp, parseInput(bulkSwapRequestSchema, req.body), actorOf(req, res));
    res.status(answer.dryRun ? 200 : 202).json(answer);
  });
  router.get('/runs', allowed, async (req, res) => {
    const { limit } = parseInput(bulkSwapRunsQuerySchema, req.query);
    res.json(await bulkSwapRuns(db, lookUp, limit));
  });
  router.get('/runs/:id', allowed, async (req, res) => {
    res.json(await bulkSwapRun(db, lookUp, String(req.params.id)));
  });

  return [{ path: '/admin/subscriptions/bulk-swap', router }];
}
