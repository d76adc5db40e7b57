import { Router } from 'express';
import {
  adminAtRiskQuerySchema,
  adminSubscriptionsQuerySchema,
  cancelSubscriptionByStaffSchema,
  changeAddressByStaffSchema,
  changeFrequencyByStaffSchema,
  changeItemsByStaffSchema,
  pauseSubscriptionByStaffSchema,
  rescheduleSubscriptionSchema,
  sendCardLinkSchema,
} from '@nh/shared/contracts/admin-subscriptions';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import { priceList } from '../../catalog';
import type { AdminArea, AdminDeps } from '../shared/area';
import { changeAddressForCustomer, changeItemsForCustomer, sendCardLink } from './on-behalf';
import { staffAddOnRoutes } from './add-on-routes';
import { cancelSubscription, changeFrequency, getSubscription, listAtRisk, listSubscriptions, pauseSubscription, rescheduleNextDelivery, resumeSubscription, skipNextDelivery } from './service';

/**
 * Subscribe & Save plans at /admin/subscriptions: the table, the at-risk list, a plan with its billing
 * history (subscriptions.view), and pause, resume, skip, reschedule, frequency, items, address, a card link and cancel on the customer's behalf
 * (subscriptions.act), each answering the plan as the detail shows it.
 */
export function subscriptionArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();
  const view = guard.require('subscriptions.view');
  const act = guard.require('subscriptions.act');
  const { db } = ctx;
  const id = (params: Record<string, unknown>) => String(params.id);

  router.get('/', view, async (req, res) => {
    res.json(await listSubscriptions(db, parseInput(adminSubscriptionsQuerySchema, req.query)));
  });
  // Before /:id, which would read "at-risk" as a plan id.
  router.get('/at-risk', view, async (req, res) => {
    res.json(await listAtRisk(db, parseInput(adminAtRiskQuerySchema, req.query)));
  });
  router.get('/:id', view, async (req, res) => {
    res.json(await getSubscription(db, id(req.params)));
  });

  router.post('/:id/pause', act, async (req, res) => {
    const { reason } = parseInput(pauseSubscriptionByStaffSchema, req.body);
    res.json(await pauseSubscription(db, id(req.params), reason, actorOf(req, res)));
  });
  router.post('/:id/resume', act, async (req, res) => {
    res.json(await resumeSubscription(db, id(req.params), actorOf(req, res)));
  });
  router.post('/:id/skip', act, async (req, res) => {
    res.json(await skipNextDelivery(db, id(req.params), actorOf(req, res)));
  });
  router.post('/:id/reschedule', act, async (req, res) => {
    const { nextBillingDate } = parseInput(rescheduleSubscriptionSchema, req.body);
    res.json(await rescheduleNextDelivery(db, id(req.params), nextBillingDate, actorOf(req, res)));
  });
  router.post('/:id/frequency', act, async (req, res) => {
    const { intervalCount, reason } = parseInput(changeFrequencyByStaffSchema, req.body);
    res.json(await changeFrequency(db, id(req.params), intervalCount, reason, ctx.config.PLAN_CADENCE_MONTHS, actorOf(req, res)));
  });
  // On the customer's behalf (./on-behalf.ts), each with a reason for the audit trail.
  router.put('/:id/items', act, async (req, res) => {
    const { reason, ...input } = parseInput(changeItemsByStaffSchema, req.body);
    res.json(await changeItemsForCustomer(db, (ids) => priceList(ctx).get(ids, { fresh: true }), id(req.params), input, reason, actorOf(req, res)));
  });
  router.put('/:id/address', act, async (req, res) => {
    const { reason, ...address } = parseInput(changeAddressByStaffSchema, req.body);
    res.json(await changeAddressForCustomer(db, id(req.params), address, reason, actorOf(req, res)));
  });
  router.post('/:id/card-link', act, async (req, res) => {
    const { reason } = parseInput(sendCardLinkSchema, req.body);
    res.json(await sendCardLink(db, id(req.params), reason, actorOf(req, res)));
  });
  router.post('/:id/cancel', act, async (req, res) => {
    const { reason, customerReason } = parseInput(cancelSubscriptionByStaffSchema, req.body);
    res.json(await cancelSubscription(db, id(req.params), reason, actorOf(req, res), customerReason ?? null));
  });
  router.use(staffAddOnRoutes(ctx, act));

  return [{ path: '/admin/subscriptions', router }];
}
