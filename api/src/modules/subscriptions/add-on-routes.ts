import { Router, type RequestHandler } from 'express';
import { addOneTimeItemRequestSchema } from '@nh/shared/contracts/ship-now-add-ons';
import type { AppContext } from '../../lib/context';
import { parseInput } from '../../lib/validation';
import { signedInUser } from '../auth';
import { addOneTimeItem, removeOneTimeItem, shipNow, shipNowKeyHash, type CatalogueLookup } from './add-ons';

/**
 * Ship now and one-time add-ons on My Subscriptions (issue 21; mounted by ./routes.ts behind its sign-in):
 * POST /api/subscriptions/{id}/ship-now (Idempotency-Key: 400 without; 202 with the plan, whose `shipNow`
 * the page polls), POST …/one-time-items {productId, size?, quantity}, DELETE …/one-time-items/{lineId}.
 */
export function addOnRoutes(ctx: AppContext, signedIn: RequestHandler, catalogue: CatalogueLookup): Router {
  const router = Router();
  const { db } = ctx;
  const userId = (res: Parameters<typeof signedInUser>[0]) => signedInUser(res).id;
  const id = (params: Record<string, unknown>) => String(params.id);

  router.post('/subscriptions/:id/ship-now', signedIn, async (req, res) => {
    const keyHash = shipNowKeyHash(req.headers['idempotency-key']);
    res.status(202).json(await shipNow(db, userId(res), id(req.params), keyHash));
  });

  router.post('/subscriptions/:id/one-time-items', signedIn, async (req, res) => {
    const input = parseInput(addOneTimeItemRequestSchema, req.body);
    res.status(201).json(await addOneTimeItem(db, catalogue, userId(res), id(req.params), input));
  });

  router.delete('/subscriptions/:id/one-time-items/:lineId', signedIn, async (req, res) => {
    res.json(await removeOneTimeItem(db, userId(res), id(req.params), String(req.params.lineId)));
  });

  return router;
}
