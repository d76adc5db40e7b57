import { Router } from 'express';
import { grantCreditRequestSchema } from '@nh/shared/contracts/store-credit';
import type { AppContext } from '../../../lib/context';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../../lib/idempotency';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { grantCredit, GRANT_IDEMPOTENCY_MESSAGES, staffCreditView } from './service';

/**
 * A customer's store credit (issue 23): its balance and ledger, and staff giving credit. Mounted at
 * /admin/customers beside the customers area (a customer with an account has its users.id as id).
 */
export function creditArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  const { db } = ctx;

  router.get('/:id/credit', guard.require('credit.grant'), async (req, res) => {
    res.json(await staffCreditView(db, String(req.params.id)));
  });

  router.post('/:id/credit', guard.require('credit.grant'), async (req, res) => {
    const key = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], GRANT_IDEMPOTENCY_MESSAGES);
    const input = parseInput(grantCreditRequestSchema, req.body);
    const answer = await grantCredit(db, String(req.params.id), input, key, actorOf(req, res), ctx.config.SUPPORT_CREDIT_LIMIT, ctx.config.STORE_CREDIT_EXPIRY_DAYS);
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json(answer.body);
  });

  return [{ path: '/admin/customers', router }];
}
