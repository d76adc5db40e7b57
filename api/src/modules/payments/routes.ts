import { Router } from 'express';
import { SANDBOX_ACCEPT_SCRIPT, type AcceptSecureData } from '@nh/server/payments';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { Payments } from './provider';

const SANDBOX_NOT_IN_USE = 'The local payment sandbox is not in use.';

/**
 * The gateway as the browser sees it: GET /api/payments/status (which tokeniser to load), and the local
 * sandbox's Accept.js-compatible script and tokeniser (only while the sandbox is in use). Charging is
 * the checkout's (checkout/), storing a card for a paused plan the subscriptions' (subscriptions/).
 */
export function paymentRoutes(_ctx: AppContext, { payments }: { payments: Payments }): Router {
  const router = Router();

  router.get('/payments/status', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(payments.status);
  });

  router.get('/payments/sandbox/accept.js', (_req, res) => {
    if (!payments.sandbox) throw new AppError('NOT_FOUND', SANDBOX_NOT_IN_USE);
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(SANDBOX_ACCEPT_SCRIPT);
  });

  router.post('/payments/sandbox/tokenize', async (req, res) => {
    const { sandbox } = payments;
    if (!sandbox) throw new AppError('NOT_FOUND', SANDBOX_NOT_IN_USE);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await sandbox.tokenize((req.body ?? {}) as AcceptSecureData));
  });

  return router;
}
