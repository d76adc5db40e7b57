/**
 * Shoppers helping themselves (issue 13): order history and detail for a signed-in shopper, a guest's
 * order by number and email through a single-use emailed link, and the password reset by email.
 */
import { Router, type Request } from 'express';
import { findOrderOfUser, findShopperOrder, listOrdersOfUser } from '@nh/server/queries/shopper-self-service';
import { creditBalance, creditHistory } from '@nh/server/queries/store-credit';
import { centsToDecimal } from '@nh/shared/money';
import { toStoreCreditEntryView, type StoreCreditView } from '@nh/shared/contracts/store-credit';
import {
  ACCOUNT_MESSAGES,
  forgotPasswordRequestSchema,
  orderAccessRequestSchema,
  orderLookupRequestSchema,
  ORDER_HISTORY_LIMIT,
  resetPasswordRequestSchema,
  type ShopperOrderList,
} from '@nh/shared/contracts/account';
import type { AppContext } from '../../lib/context';
import type { AfterAnswer } from '../../lib/after-answer';
import { AppError } from '../../lib/errors';
import { knownBrowsers } from '../../lib/known-browser';
import { createLimiter } from '../../lib/rate-limit';
import { emailKey, resetRequestLimits } from '../../lib/reset-request-limits';
import { clearSignInFailures } from '../../lib/sign-in-guard';
import { isUuid, parseInput } from '../../lib/validation';
import { requireUser, signedInUser } from '../auth';
import type { GuestAccess } from '../../lib/guest-access';
import { shopperRefundsOf } from '@nh/server/queries/order-refunds';
import { toOrderSummary, toShopperOrder } from './orders-view';
import { confirmPasswordReset, requestOrderLink, requestPasswordReset, spendOrderLink } from './service';
import { confirmEmailChange, EMAIL_CHANGE_ACTOR, showEmailChange } from './email-change';
import { OWN_EMAIL_CHANGE_ACTOR, startOwnEmailChange } from './email-change-start';
import { EMAIL_CHANGE_MESSAGES, EMAIL_CHANGE_STARTS_PER_HOUR, ownEmailChangeSchema } from '@nh/shared/contracts/email-change';
import { auditActorOf } from '../../lib/staff-auth';

const HOUR = 60 * 60 * 1000;

export function accountRoutes(ctx: AppContext, { afterAnswer, guestAccess }: { afterAnswer: AfterAnswer; guestAccess: GuestAccess }): Router {
  const router = Router();
  const limit = (name: string, max: number, message: string, key?: (req: Request) => string) =>
    createLimiter(ctx, { name, windowMs: HOUR, limit: max, message, ...(key ? { key } : {}) }).middleware;
  // Every request counts, matched or not (the answer does not say which): 10 per address and 5 per
  // email an hour.
  const lookupLimits = [limit('order-lookup', 10, ACCOUNT_MESSAGES.tooManyLookups), limit('order-lookup-email', 5, ACCOUNT_MESSAGES.tooManyLookups, emailKey)];
  // Reset requests: 10 an hour per client address, and the one rule of lib/reset-request-limits.ts: 5
  // per (email, address) and 10 per email unless the browser signed in to that account before.
  const resetLimits = [
    limit('password-forgot', 10, ACCOUNT_MESSAGES.tooManyResets),
    ...resetRequestLimits(ctx, {
      name: 'password-forgot',
      realm: 'shopper',
      known: knownBrowsers(ctx.config),
      message: ACCOUNT_MESSAGES.tooManyResets,
      windowMs: HOUR,
      perEmailAtAddress: 5,
      perEmail: 10,
    }),
  ];
  // Guessing links or reset tokens: 30 tries an hour per address.
  const tokenLimit = limit('shopper-token', 30, 'Too many attempts with links from emails. Please try again in an hour.');
  const signedIn = requireUser(ctx, ACCOUNT_MESSAGES.ordersSignIn);

  router.get('/orders', signedIn, async (_req, res) => {
    const rows = await listOrdersOfUser(ctx.db, signedInUser(res).id, ORDER_HISTORY_LIMIT);
    const body: ShopperOrderList = { orders: rows.map(toOrderSummary) };
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  });

  // Always 202 with one message, answered before the lookup is done: whether the number and email
  // matched is never told, not even by how long the answer takes.
  // Store credit (issue 23): the balance and its history, in words; never the staff's reasons.
  router.get('/account/credit', signedIn, async (_req, res) => {
    const userId = signedInUser(res).id;
    const [balance, entries] = await Promise.all([creditBalance(ctx.db.$client, userId), creditHistory(ctx.db.$client, userId)]);
    const body: StoreCreditView = { balance: centsToDecimal(balance), entries: entries.map(toStoreCreditEntryView) };
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  });

  router.post('/orders/lookup', ...lookupLimits, (req, res) => {
    const input = parseInput(orderLookupRequestSchema, req.body ?? {});
    afterAnswer.run(req.log, 'order lookup', async () => {
      const sent = await requestOrderLink(ctx.db, input.orderNumber, input.email);
      req.log.info({ links: sent }, 'order lookup');
    });
    res.status(202).json({ message: ACCOUNT_MESSAGES.lookupSent });
  });

  // The emailed link opens /orders/view#token=…, whose page posts the token here: a GET would be spent
  // by mail scanners and link previews fetching the address. The browser then sees the order for an hour.
  router.post('/orders/access', tokenLimit, async (req, res) => {
    const { token } = parseInput(orderAccessRequestSchema, req.body ?? {});
    const orderId = await spendOrderLink(ctx.db, token);
    guestAccess.grant(req, res, orderId);
    const order = await findShopperOrder(ctx.db, orderId);
    if (!order) throw new AppError('ORDER_LINK_INVALID', ACCOUNT_MESSAGES.orderLinkInvalid);
    res.setHeader('Cache-Control', 'no-store');
    res.json(toShopperOrder(order, await shopperRefundsOf(ctx.db, order.id)));
  });

  router.get('/orders/guest/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id) || !guestAccess.has(req, id)) throw new AppError('GUEST_ORDER_ACCESS_ENDED', ACCOUNT_MESSAGES.guestAccessEnded);
    const order = await findShopperOrder(ctx.db, id);
    if (!order) throw new AppError('GUEST_ORDER_ACCESS_ENDED', ACCOUNT_MESSAGES.guestAccessEnded);
    res.setHeader('Cache-Control', 'no-store');
    res.json(toShopperOrder(order, await shopperRefundsOf(ctx.db, order.id)));
  });

  // Another shopper's order, or no such order: the same 404.
  router.get('/orders/:id', signedIn, async (req, res) => {
    const id = String(req.params.id);
    const order = isUuid(id) ? await findOrderOfUser(ctx.db, signedInUser(res).id, id) : null;
    if (!order) throw new AppError('NOT_FOUND', ACCOUNT_MESSAGES.orderNotFound);
    res.setHeader('Cache-Control', 'no-store');
    res.json(toShopperOrder(order, await shopperRefundsOf(ctx.db, order.id)));
  });

  // Always 202 with one message, answered before the work: whether the address has an account is
  // never told, not even by how long the answer takes.
  router.post('/password/forgot', ...resetLimits, (req, res) => {
    const input = parseInput(forgotPasswordRequestSchema, req.body ?? {});
    afterAnswer.run(req.log, 'password reset request', () => requestPasswordReset(ctx.db, input.email));
    res.status(202).json({ message: ACCOUNT_MESSAGES.resetSent });
  });

  router.post('/password/reset', tokenLimit, async (req, res) => {
    const input = parseInput(resetPasswordRequestSchema, req.body ?? {});
    const { email } = await confirmPasswordReset(ctx.db, input.token, input.password);
    // The holder proved the account is theirs: whatever was counted against its sign-ins is gone.
    await clearSignInFailures(ctx, 'shopper', email);
    res.json({ message: ACCOUNT_MESSAGES.resetDone });
  });

  // The shopper changes their own address (issue 23): their current password (or, passwordless, a sign-in
  // of the last 10 minutes); the link goes to the new address and the change waits for it. Wrong
  // passwords count against the address (10 an hour), successful starts against the account (5 an hour).
  const ownEmailChangeTries = limit('own-email-change', 10, EMAIL_CHANGE_MESSAGES.tooManyAttempts);
  const ownEmailChangeStarts = createLimiter(ctx, {
    name: 'own-email-change-starts',
    windowMs: HOUR,
    limit: EMAIL_CHANGE_STARTS_PER_HOUR,
    message: EMAIL_CHANGE_MESSAGES.ownTooMany,
    count: 'successes',
    key: (req) => req.session?.userId ?? 'none',
  }).middleware;
  router.post('/account/email', signedIn, ownEmailChangeTries, ownEmailChangeStarts, async (req, res) => {
    const input = parseInput(ownEmailChangeSchema, req.body ?? {});
    const user = signedInUser(res);
    const answer = await startOwnEmailChange(ctx.db, user, input, req.session.signedInAt, auditActorOf(req, null, OWN_EMAIL_CHANGE_ACTOR));
    res.setHeader('Cache-Control', 'no-store');
    res.status(202).json(answer);
  });

  // A new email address confirmed by the customer (issue 23): the emailed link opens
  // /account/confirm-email/<token>; its page reads the change here (spends nothing: mail scanners open
  // links) and confirms it with a POST on the customer's click. The token is a path segment, redacted from logs.
  router.get('/account/email-change/:token', tokenLimit, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await showEmailChange(ctx.db, String(req.params.token)));
  });
  router.post('/account/email-change/:token', tokenLimit, async (req, res) => {
    const answer = await confirmEmailChange(ctx.db, String(req.params.token), auditActorOf(req, null, EMAIL_CHANGE_ACTOR));
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });

  return router;
}
