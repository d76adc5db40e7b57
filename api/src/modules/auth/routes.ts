import { Router, type Request } from 'express';
import { SHOP } from '@nh/shared';
import { AUTH_MESSAGES, loginRequestSchema, registerRequestSchema, type AuthUser, type SignInResponse } from '@nh/shared/contracts/auth';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { createLimiter } from '../../lib/rate-limit';
import { parseInput } from '../../lib/validation';
import { currentUser } from './current-user';
import { LOGIN_SCRIPT, renderLoginPage, renderLogoutPage } from './login-page';
import { safeReturnTo } from './return-to';
import { authenticate, register } from './service';

/** The session cookie's name (set in lib/session.ts); cleared on sign-out. */
const SESSION_COOKIE = 'nh.sid';
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** The account a sign-in names (its email as typed, normalised), for the per-account limit. */
const accountKey = (req: Request): string => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `acct:${email.trim().toLowerCase().slice(0, 320)}` : '';
};

/** Starts a fresh session for the user (a new id on every sign-in prevents session fixation). */
async function signIn(req: Request, user: AuthUser): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
  req.session.userId = user.id;
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  const failures = ctx.config.LOGIN_FAILURES_PER_15_MIN;
  // Failed sign-ins per client address and per account (successful ones are not counted): guessing
  // one account's password from many addresses is stopped as well as one address trying many accounts.
  const loginLimiters = [
    createLimiter(ctx, { name: 'login-address', windowMs: FIFTEEN_MINUTES, limit: failures, count: 'failures', message: AUTH_MESSAGES.tooManyAttempts }),
    createLimiter(ctx, { name: 'login-account', windowMs: FIFTEEN_MINUTES, limit: failures, count: 'failures', message: AUTH_MESSAGES.tooManyAttempts, key: accountKey }),
  ].map((l) => l.middleware);
  // Account creation per client address: 20 per hour.
  const registerLimiter = createLimiter(ctx, {
    name: 'register',
    windowMs: 4 * FIFTEEN_MINUTES,
    limit: 20,
    message: 'Too many new accounts from this address. Please try again later.',
  }).middleware;

  router.get('/login', async (req, res) => {
    const returnTo = safeReturnTo(req.query.returnTo);
    if (await currentUser(ctx, req)) {
      res.redirect(303, returnTo);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(renderLoginPage({ shopName: SHOP.name, returnTo }));
  });

  router.get('/login.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/javascript').send(LOGIN_SCRIPT);
  });

  router.post('/login', ...loginLimiters, async (req, res) => {
    const input = parseInput(loginRequestSchema, req.body ?? {});
    const user = await authenticate(ctx.db, input.email, input.password);
    if (!user) throw new AppError('WRONG_CREDENTIALS', AUTH_MESSAGES.wrongCredentials);
    await signIn(req, user);
    const body: SignInResponse = { user, redirectTo: safeReturnTo(input.returnTo) };
    res.json(body);
  });

  router.post('/register', registerLimiter, async (req, res) => {
    const input = parseInput(registerRequestSchema, req.body ?? {});
    const user = await register(ctx.db, input);
    if (!user) throw new AppError('EMAIL_TAKEN', AUTH_MESSAGES.emailTaken);
    await signIn(req, user);
    const body: SignInResponse = { user, redirectTo: safeReturnTo(input.returnTo) };
    res.status(201).json(body);
  });

  // Signing out is a POST (a GET could be triggered by any other site); the GET shows a Log Out button.
  router.get('/logout', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(renderLogoutPage({ shopName: SHOP.name }));
  });

  router.post('/logout', async (req, res) => {
    await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.redirect(303, '/');
  });

  // A guest is an answer, not an error: 200 with null (the spec: "absence means signed out"). A 401
  // here showed as a console error on every page a guest opened (Lighthouse's best practices).
  router.get('/auth/user', async (req, res) => {
    const user = await currentUser(ctx, req);
    res.setHeader('Cache-Control', 'no-store');
    res.json(user);
  });

  return router;
}
