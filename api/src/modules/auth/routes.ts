import { Router } from 'express';
import { findUserByEmail } from '@nh/server/queries/shopper-self-service';
import { SHOP } from '@nh/shared';
import { AUTH_MESSAGES, loginRequestSchema, registerRequestSchema, type SignInResponse } from '@nh/shared/contracts/auth';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { knownBrowsers } from '../../lib/known-browser';
import { createLimiter } from '../../lib/rate-limit';
import { createSignInGuard } from '../../lib/sign-in-guard';
import { parseInput } from '../../lib/validation';
import { endGuestAccess } from '../../lib/guest-access';
import { currentUser } from './current-user';
import { LOGIN_SCRIPT, renderLoginPage, renderLogoutPage } from './login-page';
import { safeReturnTo } from './return-to';
import { startShopperSession } from './session-start';
import { authenticate, register } from './service';

/** The session cookie's name (set in lib/session.ts); cleared on sign-out. */
const SESSION_COOKIE = 'nh.sid';
const FIFTEEN_MINUTES = 15 * 60 * 1000;

const signIn = startShopperSession;

export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  const known = knownBrowsers(ctx.config);
  // The sign-in limits (lib/sign-in-guard.ts): hard per (account, address) and per address; the
  // account-wide count only slows browsers new to the account down, and tells the holder by email.
  const signInGuard = createSignInGuard(ctx, {
    realm: 'shopper',
    message: AUTH_MESSAGES.tooManyAttempts,
    known,
    holderOf: async (email) => {
      const user = await findUserByEmail(ctx.db, email);
      return user?.passwordHash ? user.id : null;
    },
  });
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

  router.post('/login', signInGuard.addressLimit, async (req, res) => {
    const input = parseInput(loginRequestSchema, req.body ?? {});
    const attempt = await signInGuard.begin(req, res, input.email);
    const user = await authenticate(ctx.db, input.email, input.password);
    if (!user) {
      await attempt.failed();
      throw new AppError('WRONG_CREDENTIALS', AUTH_MESSAGES.wrongCredentials);
    }
    await attempt.succeeded();
    await signIn(req, user);
    const body: SignInResponse = { user, redirectTo: safeReturnTo(input.returnTo) };
    res.json(body);
  });

  router.post('/register', registerLimiter, async (req, res) => {
    const input = parseInput(registerRequestSchema, req.body ?? {});
    const user = await register(ctx.db, input);
    if (!user) throw new AppError('EMAIL_TAKEN', AUTH_MESSAGES.emailTaken);
    known.remember(req, res, 'shopper', user.email);
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
    // A guest's order grants end with the rest of what this browser was signed into (a shared computer).
    endGuestAccess(res);
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
