/**
 * Signing in with a code emailed to the shopper (issue 22; docs/decisions/passwordless.md). Asking
 * always answers 202 with one message, before the work is done (lib/after-answer.ts), so neither words
 * nor time tell whether the email has an account. Checking a code starts the ordinary shopper session.
 */
import { Router } from 'express';
import { recordOutbox } from '@nh/server/queries/outbox';
import { insertSignInCode, spendSignInCode } from '@nh/server/queries/sign-in-codes';
import { findOrInsertPasswordlessUser, findUserById } from '@nh/server/queries/shopper-accounts';
import { findUserByEmail } from '@nh/server/queries/shopper-self-service';
import { AUTH_MESSAGES, emailCodeRequestSchema, emailCodeVerifySchema, SIGN_IN_CODE_TTL_MS, type SignInResponse } from '@nh/shared/contracts/auth';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import type { Db } from '@nh/server/db/client';
import type { AfterAnswer } from '../../lib/after-answer';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { knownBrowsers } from '../../lib/known-browser';
import { createLimiter } from '../../lib/rate-limit';
import { resetRequestLimits } from '../../lib/reset-request-limits';
import { clearSignInFailures } from '../../lib/sign-in-guard';
import { parseInput } from '../../lib/validation';
import { safeReturnTo } from './return-to';
import { startShopperSession } from './session-start';

const HOUR = 60 * 60 * 1000;
const NOTHING_TO_SEND = new Error('nothing to send');
/** Codes checked per client address per 15 minutes (right or wrong): a guesser spends only their own address's budget. */
export const CODE_CHECKS_PER_ADDRESS = 30;

/**
 * Writes the code's row and its outbox row when the email has an account, or for a checkout's sign-up
 * (`signUp`) whatever the email; the mail worker makes the code.
 */
export async function requestSignInCode(db: Db, email: string, signUp = false): Promise<boolean> {
  const user = await findUserByEmail(db, email);
  const sends = Boolean(user) || signUp;
  // The same work either way (the answer does not wait for it, but it shares the process with the next
  // answers): an email that gets nothing writes the same rows in a transaction that is rolled back.
  await db
    .transaction(async (tx) => {
      const row = await insertSignInCode(tx, { email: user?.email ?? email.toLowerCase(), userId: user?.id ?? null, expiresAt: new Date(Date.now() + SIGN_IN_CODE_TTL_MS) });
      await recordOutbox(tx, OUTBOX_TOPICS.shopperSignInCodeRequested, { codeId: row.id });
      if (!sends) throw NOTHING_TO_SEND;
    })
    .catch((err: unknown) => {
      if (err !== NOTHING_TO_SEND) throw err;
    });
  return sends;
}

export function emailCodeRoutes(ctx: AppContext, { afterAnswer }: { afterAnswer: AfterAnswer }): Router {
  const router = Router();
  const known = knownBrowsers(ctx.config);
  // Asking for codes: the password reset's rule (lib/reset-request-limits.ts, security review section 3):
  // 10 an hour per address, 5 per (email, address), 10 per email unless the browser signed in to the
  // account before or it is the first request for the email from this address; a stranger never uses
  // up the holder's budget.
  const requestLimits = [
    createLimiter(ctx, { name: 'email-code', windowMs: HOUR, limit: 10, message: AUTH_MESSAGES.tooManyCodeRequests }).middleware,
    ...resetRequestLimits(ctx, {
      name: 'email-code',
      realm: 'shopper',
      known,
      message: AUTH_MESSAGES.tooManyCodeRequests,
      windowMs: HOUR,
      perEmailAtAddress: 5,
      perEmail: 10,
    }),
  ];
  // Checking codes: per client address only (each code also allows 5 tries, whoever types them).
  const checkLimit = createLimiter(ctx, { name: 'email-code-check', windowMs: HOUR / 4, limit: CODE_CHECKS_PER_ADDRESS, message: AUTH_MESSAGES.tooManyCodeTries }).middleware;

  router.post('/login/email-code', ...requestLimits, (req, res) => {
    const input = parseInput(emailCodeRequestSchema, req.body ?? {});
    afterAnswer.run(req.log, 'sign-in code request', () => requestSignInCode(ctx.db, input.email, input.signUp === true));
    res.status(202).json({ message: AUTH_MESSAGES.codeSent });
  });

  router.post('/login/email-code/verify', checkLimit, async (req, res) => {
    const input = parseInput(emailCodeVerifySchema, req.body ?? {});
    const spent = await spendSignInCode(ctx.db, input.email, input.code);
    if (!spent) throw new AppError('SIGN_IN_CODE_INVALID', AUTH_MESSAGES.codeWrong);
    // A checkout's sign-up code to an email without an account: the verified email becomes one (no password).
    const user = spent.userId
      ? await findUserById(ctx.db, spent.userId)
      : await findOrInsertPasswordlessUser(ctx.db, { email: spent.email, firstName: input.firstName || null, lastName: input.lastName || null });
    if (!user) throw new AppError('SIGN_IN_CODE_INVALID', AUTH_MESSAGES.codeWrong);
    // The holder proved the inbox is theirs: as after a reset, what was counted against the account goes.
    await clearSignInFailures(ctx, 'shopper', user.email);
    known.remember(req, res, 'shopper', user.email);
    await startShopperSession(req, user);
    const body: SignInResponse = { user, redirectTo: safeReturnTo(input.returnTo) };
    res.json(body);
  });

  return router;
}
