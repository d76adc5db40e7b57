/**
 * Staff sign-in for the back office: a server-side session per sign-in (table `staff_sessions`), its
 * random token in an httpOnly, SameSite=Strict cookie (path /: the queue dashboard at /admin/queues
 * is signed in by it too). Every admin route states the
 * permission it needs (shared/src/contracts/staff.ts); the guard answers 401 without a live session
 * and 403 when the role lacks the permission. A disabled account's sessions are deleted at once, and
 * the lookup also refuses a disabled account, so the next call is refused either way.
 */
import type { Request, RequestHandler, Response } from 'express';
import { findSessionStaff, hashStaffToken } from '@nh/server/queries/staff';
import type { AuditActor } from '@nh/server/queries/audit';
import { can, STAFF_MESSAGES, STAFF_ROLE_LABELS, STAFF_SESSION_TTL_MS, type Permission, type StaffMe } from '@nh/shared/contracts/staff';
import type { AppContext } from './context';
import { cookieOf, secureCookies } from './cookies';
import { AppError } from './errors';

export const STAFF_COOKIE = 'nh.staff';

/** The staff session token of the request's Cookie header, if any. */
export function staffTokenOf(req: Request): string | null {
  const value = cookieOf(req, STAFF_COOKIE);
  return value !== null && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

export function setStaffCookie(ctx: AppContext, res: Response, token: string): void {
  res.cookie(STAFF_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookies(ctx.config, res.req),
    path: '/',
    maxAge: STAFF_SESSION_TTL_MS,
  });
}

export function clearStaffCookie(ctx: AppContext, res: Response): void {
  res.clearCookie(STAFF_COOKIE, { httpOnly: true, sameSite: 'strict', secure: secureCookies(ctx.config, res.req), path: '/' });
}

/** The signed-in staff member of a request the guard let through. */
export function staffOf(res: Response): StaffMe {
  const staff = res.locals.staff as StaffMe | undefined;
  if (!staff) throw new AppError('STAFF_SIGN_IN_REQUIRED', STAFF_MESSAGES.signInRequired);
  return staff;
}

/** Who did it and from where, for the audit row of a change. */
export function auditActorOf(req: Request, staff: Pick<StaffMe, 'id' | 'email' | 'role'> | null, email?: string): AuditActor {
  return {
    staffId: staff?.id ?? null,
    email: staff?.email ?? email ?? 'unknown',
    role: staff?.role ?? null,
    ip: req.ip ?? null,
    userAgent: req.get('user-agent') ?? null,
    requestId: req.id ?? null,
  };
}

/** The acting staff member of a guarded request, as the audit records them. */
export const actorOf = (req: Request, res: Response): AuditActor => auditActorOf(req, staffOf(res));

export interface StaffGuard {
  /** The signed-in staff member (or a 401), then the permission (or a 403). */
  require: (permission: Permission) => RequestHandler;
  /** Only a live session, whatever the role (e.g. GET /api/admin/me). */
  signedIn: RequestHandler;
  /** The request's signed-in staff member, or null (no 401): e.g. signing out. */
  current: (req: Request, res: Response) => Promise<StaffMe | null>;
}

/** The back office's guard, made once by the admin area. */
export function createStaffGuard(ctx: AppContext): StaffGuard {
  const current = async (req: Request, res: Response): Promise<StaffMe | null> => {
    if (res.locals.staff) return res.locals.staff as StaffMe;
    const token = staffTokenOf(req);
    const staff = token ? await findSessionStaff(ctx.db, hashStaffToken(token)) : null;
    if (staff) res.locals.staff = staff;
    return staff;
  };
  const load = async (req: Request, res: Response): Promise<StaffMe> => {
    const staff = await current(req, res);
    if (!staff) throw new AppError('STAFF_SIGN_IN_REQUIRED', STAFF_MESSAGES.signInRequired);
    return staff;
  };
  return {
    current,
    signedIn: async (req, res, next) => {
      await load(req, res);
      next();
    },
    require: (permission) => async (req, res, next) => {
      const staff = await load(req, res);
      if (!can(staff.role, permission)) throw new AppError('STAFF_FORBIDDEN', `${STAFF_MESSAGES.forbidden} (${STAFF_ROLE_LABELS[staff.role]}).`);
      next();
    },
  };
}
