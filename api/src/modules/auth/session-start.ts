import type { Request } from 'express';
import type { AuthUser } from '@nh/shared/contracts/auth';

/** Starts a fresh session for the user (a new id on every sign-in prevents session fixation). */
export async function startShopperSession(req: Request, user: AuthUser): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
  req.session.userId = user.id;
  req.session.signedInAt = Date.now();
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}
