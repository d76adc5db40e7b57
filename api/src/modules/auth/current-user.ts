import type { Request, RequestHandler, Response } from 'express';
import { AUTH_MESSAGES, type AuthUser } from '@nh/shared/contracts/auth';
import { findUserById } from '@nh/server/queries/shopper-accounts';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';

/** The signed-in shopper of this request, or null (no session, or the account no longer exists). */
export async function currentUser(ctx: AppContext, req: Request): Promise<AuthUser | null> {
  const userId = req.session?.userId;
  if (!userId) return null;
  const user = await findUserById(ctx.db, userId);
  if (!user) {
    delete req.session.userId;
    return null;
  }
  return user;
}

/**
 * Route guard: 401 `{ message }` unless signed in (by default 'Not signed in'; a call may name its own,
 * as the subscription calls do, spec §8); the user is then `signedInUser(res)`.
 */
export function requireUser(ctx: AppContext, message: string = AUTH_MESSAGES.notSignedIn): RequestHandler {
  return async (req, res, next) => {
    const user = await currentUser(ctx, req);
    if (!user) return next(new AppError('NOT_SIGNED_IN', message));
    res.locals.user = user;
    next();
  };
}

/** The user `requireUser` found (only valid after it ran). */
export function signedInUser(res: Response): AuthUser {
  const user = res.locals.user as AuthUser | undefined;
  if (!user) throw new AppError('NOT_SIGNED_IN', AUTH_MESSAGES.notSignedIn);
  return user;
}
