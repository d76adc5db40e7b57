import type { RequestHandler } from 'express';
import type { AppContext } from '../../context';
import { unauthorized } from '../../lib/errors';
import { currentUser } from '../auth';

/**
 * Route guard for the subscription calls: 401 with the call's own message (spec §8) unless signed in;
 * the user is then `signedInUser(res)`. Runs before anything else looks at the request.
 */
export function requireSignedIn(ctx: AppContext, message: string): RequestHandler {
  return async (req, res, next) => {
    const user = await currentUser(ctx, req);
    if (!user) return next(unauthorized(message));
    res.locals.user = user;
    next();
  };
}
