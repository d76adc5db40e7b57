import { Router } from 'express';
import { ADMIN_MESSAGES, verifyPasswordRequestSchema, type VerifyPasswordResponse } from '@nh/shared/contracts/admin';
import type { AppContext } from '../../../context';
import { checkAdminCredential, issueAdminToken } from '../../../lib/admin-auth';
import { AppError } from '../../../lib/errors';
import { parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../area';

/** Staff sign-in to the back office (the place for staff accounts and their audit to come). */
export function staffArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const router = Router();

  /**
   * 200 {authenticated: true, token, expiresAt} for the password or a valid token; 401 {authenticated:
   * false, message, code} otherwise (a 401, so that wrong guesses count against the rate limit).
   */
  router.post('/', guard.failureLimiter, (req, res) => {
    const { password } = parseInput(verifyPasswordRequestSchema, req.body);
    const credential = checkAdminCredential(ctx, password);
    if (!credential) throw new AppError('ADMIN_AUTH_FAILED', ADMIN_MESSAGES.invalidPassword, { authenticated: false });
    res.locals.adminAuthenticated = true;
    // A token proves itself without being extended: its expiry stays absolute.
    const issued = credential.kind === 'token' ? { token: password, expiresAt: credential.expiresAt } : issueAdminToken(ctx);
    const body: VerifyPasswordResponse = { authenticated: true, token: issued.token, expiresAt: issued.expiresAt.toISOString() };
    res.json(body);
  });

  return [{ path: '/admin/verify-password', router }];
}
