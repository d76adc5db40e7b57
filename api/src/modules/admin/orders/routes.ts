import { Router } from 'express';
import { adminOrderRequestSchema, adminOrdersRequestSchema, updateOrderSchema } from '@nh/shared/contracts/admin';
import { RESEND_MESSAGES, resendEmailRequestSchema } from '@nh/shared/contracts/order-timeline';
import { changeOrderAddressSchema } from '@nh/shared/contracts/admin-order-address';
import { refundRequestSchema } from '@nh/shared/contracts/refunds';
import type { AppContext } from '../../../lib/context';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../../lib/idempotency';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { changeOrderAddress } from './address';
import { listOrders } from './list';
import { REFUND_IDEMPOTENCY_MESSAGES, refundOrder } from './refunds';
import { refundToCredit } from './refund-to-credit';
import { chargeSettlement } from './settlement';
import { getOrder, updateOrder } from './service';
import { orderTimeline, resendOrderEmail } from './timeline';

/** Orders of one store: list (search, status filter, pages), detail, fulfilment update, refunds and voids. */
export function orderArea(ctx: AppContext, { guard, invalidateCatalog, gateway, reads }: AdminDeps): AdminArea[] {
  const router = Router();
  const { db } = ctx;

  router.post('/', guard.require('orders.view'), async (req, res) => {
    const query = parseInput(adminOrdersRequestSchema, req.body);
    const page = await reads.read(req, res, (db) => listOrders(db, { ...query, search: query.search || undefined }));
    // The spec's answer is the list itself; paging facts travel in headers.
    res
      .set({ 'X-Total-Count': String(page.total), 'X-Total-Capped': String(page.capped), 'X-Limit': String(query.limit), 'X-Offset': String(query.offset) })
      .json(page.orders);
  });

  router.post('/:id', guard.require('orders.view'), async (req, res) => {
    const { storeCode } = parseInput(adminOrderRequestSchema, req.body);
    res.json(await getOrder(db, storeCode, String(req.params.id)));
  });

  router.patch('/:id', guard.require('orders.fulfil'), async (req, res) => {
    const { storeCode, trackingNumber, carrier, status, restock } = parseInput(updateOrderSchema, req.body);
    res.json(await updateOrder({ db, invalidateCatalog }, storeCode, String(req.params.id), { trackingNumber, carrier, status, restock }, actorOf(req, res)));
  });

  // A refund, or a void before the charge settles (refunds.ts). The key makes a repeat answer the first refund.
  router.post('/:id/refunds', guard.require('orders.refund'), async (req, res) => {
    const key = readIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], REFUND_IDEMPOTENCY_MESSAGES);
    const { storeCode, ...input } = parseInput(refundRequestSchema, req.body);
    if (input.method === 'credit') {
      // Store credit instead of the card (issue 23): no payment service, the ledger of the order's account.
      const credit = await refundToCredit(db, storeCode, String(req.params.id), input, key, actorOf(req, res));
      if (credit.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(credit.status).json(credit.body);
      return;
    }
    const answer = await refundOrder({ db, gateway, log: ctx.log, invalidateCatalog }, storeCode, String(req.params.id), input, key, actorOf(req, res));
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(answer.status).json(answer.body);
  });

  // Issue 23: where the charge stands (void in full or refund), asked by the refund dialog's review step (settlement.ts).
  router.post('/:id/settlement', guard.require('orders.refund'), async (req, res) => {
    const { storeCode } = parseInput(adminOrderRequestSchema, req.body);
    res.json(await chargeSettlement({ db, gateway, log: ctx.log }, storeCode, String(req.params.id)));
  });

  // Issue 23: the shipping address of an order not shipped yet (address.ts).
  router.put('/:id/address', guard.require('orders.editAddress'), async (req, res) => {
    const input = parseInput(changeOrderAddressSchema, req.body);
    const { changed } = await changeOrderAddress(db, String(req.params.id), input, actorOf(req, res));
    res.json({ ...(await getOrder(db, input.storeCode, String(req.params.id))), changed });
  });

  router.post('/:id/timeline', guard.require('orders.view'), async (req, res) => {
    const { storeCode } = parseInput(adminOrderRequestSchema, req.body);
    res.json(await orderTimeline(db, storeCode, String(req.params.id)));
  });

  router.post('/:id/emails', guard.require('orders.resendEmail'), async (req, res) => {
    const { storeCode, email } = parseInput(resendEmailRequestSchema, req.body);
    await resendOrderEmail(db, storeCode, String(req.params.id), email, actorOf(req, res));
    res.status(202).json({ queued: true, message: RESEND_MESSAGES.queued });
  });

  return [{ path: '/admin/orders', router }];
}
