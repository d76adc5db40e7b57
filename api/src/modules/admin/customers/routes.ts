import { Router } from 'express';
import { anonymiseInputSchema, customerListQuerySchema, customerNoteInputSchema, customerTagsInputSchema } from '@nh/shared/contracts/admin-customers';
import type { AppContext } from '../../../lib/context';
import { actorOf, staffOf } from '../../../lib/staff-auth';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { anonymiseCustomer, exportCustomer } from './privacy';
import { mergeGuestOrdersIntoAccount, sendSignInCode } from './actions';
import { startEmailChange } from './email-change';
import { EMAIL_CHANGE_MESSAGES, EMAIL_CHANGE_STARTS_PER_HOUR, emailChangeStartSchema } from '@nh/shared/contracts/email-change';
import { createLimiter } from '../../../lib/rate-limit';
import { addCustomerNote, addOrderNote, customerDetail, customerList, notesOfOrder, replaceCustomerTags } from './service';

/** Customers at /admin/customers (list, page, notes, tags) and notes on orders at /admin/orders/{id}/notes. */
export function customerArea(ctx: AppContext, { guard, reads }: AdminDeps): AdminArea[] {
  const { db } = ctx;
  const view = guard.require('customers.view');
  const edit = guard.require('customers.edit');
  const privacy = guard.require('customers.privacy');

  const customers = Router();
  customers.get('/', view, async (req, res) => {
    const query = parseInput(customerListQuerySchema, req.query);
    res.json(await reads.read(req, res, (db) => customerList(db, query)));
  });
  customers.get('/:id', view, async (req, res) => {
    res.json(await customerDetail(db, req.params.id as string));
  });
  customers.post('/:id/notes', edit, async (req, res) => {
    const { body } = parseInput(customerNoteInputSchema, req.body);
    res.status(201).json(await addCustomerNote(db, req.params.id as string, body, staffOf(res), actorOf(req, res)));
  });
  customers.put('/:id/tags', edit, async (req, res) => {
    const { tags } = parseInput(customerTagsInputSchema, req.body);
    res.json(await replaceCustomerTags(db, req.params.id as string, tags, actorOf(req, res)));
  });

  customers.post('/:id/sign-in-code', edit, async (req, res) => {
    res.status(202).json(await sendSignInCode(db, req.params.id as string, actorOf(req, res)));
  });
  // Changing the email, verified by the customer: a link to the new address (at most 5 a customer an hour).
  const emailChangeLimit = createLimiter(ctx, {
    name: 'customer-email-change',
    windowMs: 60 * 60 * 1000,
    limit: EMAIL_CHANGE_STARTS_PER_HOUR,
    message: EMAIL_CHANGE_MESSAGES.tooMany,
    count: 'successes',
    key: (req) => String(req.params.id).toLowerCase(),
  }).middleware;
  customers.post('/:id/email-change', edit, emailChangeLimit, async (req, res) => {
    const { email } = parseInput(emailChangeStartSchema, req.body ?? {});
    res.status(202).json(await startEmailChange(db, req.params.id as string, email, actorOf(req, res)));
  });
  customers.post('/:id/merge-guest-orders', edit, async (req, res) => {
    res.json(await mergeGuestOrdersIntoAccount(db, req.params.id as string, actorOf(req, res)));
  });
  customers.get('/:id/export', privacy, async (req, res) => {
    const data = await exportCustomer(db, req.params.id as string, actorOf(req, res));
    res.set('Content-Disposition', `attachment; filename="customer-${String((data.customer as { id?: string } | null)?.id ?? 'export').slice(0, 8)}.json"`);
    res.json(data);
  });
  customers.post('/:id/anonymise', privacy, async (req, res) => {
    const { confirmEmail } = parseInput(anonymiseInputSchema, req.body);
    res.json(await anonymiseCustomer(db, req.params.id as string, confirmEmail, actorOf(req, res)));
  });

  const orderNotes = Router();
  orderNotes.get('/:id/notes', guard.require('orders.view'), async (req, res) => {
    res.json(await notesOfOrder(db, req.params.id as string));
  });
  orderNotes.post('/:id/notes', edit, async (req, res) => {
    const { body } = parseInput(customerNoteInputSchema, req.body);
    res.status(201).json(await addOrderNote(db, req.params.id as string, body, staffOf(res), actorOf(req, res)));
  });

  return [
    { path: '/admin/customers', router: customers },
    { path: '/admin/orders', router: orderNotes },
  ];
}
