import { Router, type RequestHandler } from 'express';
import { addOneTimeItemByStaffSchema, removeOneTimeItemByStaffSchema, shipNowByStaffSchema } from '@nh/shared/contracts/ship-now-add-ons';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import { shipNowKeyHash } from '../../subscriptions/add-ons';
import { addOneTimeItemForCustomer, removeOneTimeItemForCustomer, shipNowForCustomer } from './add-ons';

/**
 * Staff's Ship now and one-time add-ons (issue 21; mounted by ./routes.ts, `subscriptions.act`):
 * POST /api/admin/subscriptions/{id}/ship-now {reason} (Idempotency-Key), POST …/one-time-items
 * {productId, size?, quantity, reason}, DELETE …/one-time-items/{lineId} {reason}.
 */
export function staffAddOnRoutes(ctx: AppContext, act: RequestHandler): Router {
  const router = Router();
  const { db } = ctx;
  const id = (params: Record<string, unknown>) => String(params.id);

  router.post('/:id/ship-now', act, async (req, res) => {
    const keyHash = shipNowKeyHash(req.headers['idempotency-key']);
    const { reason } = parseInput(shipNowByStaffSchema, req.body);
    res.status(202).json(await shipNowForCustomer(db, id(req.params), keyHash, reason, actorOf(req, res)));
  });
  router.post('/:id/one-time-items', act, async (req, res) => {
    const { reason, ...input } = parseInput(addOneTimeItemByStaffSchema, req.body);
    res.status(201).json(await addOneTimeItemForCustomer(db, id(req.params), input, reason, actorOf(req, res)));
  });
  router.delete('/:id/one-time-items/:lineId', act, async (req, res) => {
    const { reason } = parseInput(removeOneTimeItemByStaffSchema, req.body);
    res.json(await removeOneTimeItemForCustomer(db, id(req.params), String(req.params.lineId), reason, actorOf(req, res)));
  });
  return router;
}
