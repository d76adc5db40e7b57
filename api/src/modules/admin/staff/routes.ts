import { Router } from 'express';
import {
  acceptInvitationSchema,
  confirmStaffResetSchema,
  invitationTokenSchema,
  inviteStaffSchema,
  requestStaffResetSchema,
  STAFF_MESSAGES,
  staffSignInSchema,
  updateStaffSchema,
  type StaffMe,
} from '@nh/shared/contracts/staff';
import type { AppContext } from '../../../context';
import { AppError } from '../../../lib/errors';
import { createLimiter, clientAddressKey } from '../../../lib/rate-limit';
import { actorOf, auditActorOf, clearStaffCookie, setStaffCookie, staffOf, staffTokenOf } from '../../../lib/staff-auth';
import { isUuid, parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../area';
import { acceptInvitation, changeStaff, checkInvitation, confirmPasswordReset, invite, listStaffAndInvitations, requestPasswordReset, revokeStaffInvitation, signIn, signOut } from './service';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Staff sign-in and sign-out, the signed-in member, staff accounts, invitations and password resets. */
export function staffArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const { db } = ctx;
  const failures = ctx.config.LOGIN_FAILURES_PER_15_MIN;
  const emailKey = (req: { body?: unknown }) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? `account:${email.trim().toLowerCase().slice(0, 320)}` : '';
  };
  // Failed sign-ins per address and per account: one account guessed from many addresses is stopped too.
  const signInLimiters = [
    createLimiter(ctx, { name: 'staff-login-address', windowMs: FIFTEEN_MINUTES, limit: failures, count: 'failures', message: STAFF_MESSAGES.tooManySignIns }),
    createLimiter(ctx, { name: 'staff-login-account', windowMs: FIFTEEN_MINUTES, limit: failures, count: 'failures', message: STAFF_MESSAGES.tooManySignIns, key: emailKey }),
  ].map((l) => l.middleware);
  // Reset and invitation-token requests per address (each may send an email or probe a token).
  const tokenLimiter = createLimiter(ctx, { name: 'staff-tokens', windowMs: FIFTEEN_MINUTES, limit: 20, message: STAFF_MESSAGES.tooManyTokenRequests, key: clientAddressKey }).middleware;

  const session = Router();
  session.post('/', ...signInLimiters, async (req, res) => {
    const { email, password } = parseInput(staffSignInSchema, req.body);
    const outcome = await signIn(db, email, password, auditActorOf(req, null, email));
    if (outcome.kind === 'refused') throw new AppError('STAFF_SIGN_IN_FAILED', STAFF_MESSAGES.signInFailed);
    if (outcome.kind === 'disabled') throw new AppError('STAFF_ACCOUNT_DISABLED', STAFF_MESSAGES.accountDisabled);
    setStaffCookie(ctx, res, outcome.token);
    res.json(outcome.staff satisfies StaffMe);
  });
  session.delete('/', async (req, res) => {
    // Signing out without a live session still clears the cookie.
    const member = await guard.current(req, res);
    await signOut(db, staffTokenOf(req), member ? auditActorOf(req, member) : null);
    clearStaffCookie(ctx, res);
    res.status(204).end();
  });

  const me = Router();
  me.get('/', guard.signedIn, (_req, res) => {
    res.json(staffOf(res));
  });

  const staff = Router();
  staff.get('/', guard.require('staff.manage'), async (_req, res) => {
    res.json(await listStaffAndInvitations(db));
  });
  staff.post('/invitations', guard.require('staff.manage'), async (req, res) => {
    res.status(201).json(await invite(db, parseInput(inviteStaffSchema, req.body), actorOf(req, res)));
  });
  staff.delete('/invitations/:id', guard.require('staff.manage'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw new AppError('NOT_FOUND', STAFF_MESSAGES.invitationNotOpen);
    await revokeStaffInvitation(db, id, actorOf(req, res));
    res.status(204).end();
  });
  staff.patch('/:id', guard.require('staff.manage'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw new AppError('NOT_FOUND', STAFF_MESSAGES.staffNotFound);
    res.json(await changeStaff(db, id, parseInput(updateStaffSchema, req.body), actorOf(req, res)));
  });

  const invitations = Router();
  invitations.post('/check', tokenLimiter, async (req, res) => {
    res.json(await checkInvitation(db, parseInput(invitationTokenSchema, req.body).token));
  });
  invitations.post('/accept', tokenLimiter, async (req, res) => {
    const input = parseInput(acceptInvitationSchema, req.body);
    const { staff: member, token } = await acceptInvitation(db, input, auditActorOf(req, null));
    setStaffCookie(ctx, res, token);
    res.json(member);
  });

  const reset = Router();
  reset.post('/', tokenLimiter, async (req, res) => {
    await requestPasswordReset(db, parseInput(requestStaffResetSchema, req.body).email);
    res.status(202).json({ message: STAFF_MESSAGES.resetSent });
  });
  reset.post('/confirm', tokenLimiter, async (req, res) => {
    const { token, password } = parseInput(confirmStaffResetSchema, req.body);
    await confirmPasswordReset(db, token, password, auditActorOf(req, null));
    res.json({ message: STAFF_MESSAGES.passwordChanged });
  });

  /**
   * The spec's password check, kept as a compatibility answer: {authenticated} says whether the
   * request has a live staff session (the shared password is gone; nothing is read from the body).
   */
  const verify = Router();
  verify.post('/', guard.signedIn, (_req, res) => {
    res.json({ authenticated: true });
  });

  return [
    { path: '/admin/session', router: session },
    { path: '/admin/me', router: me },
    { path: '/admin/staff', router: staff },
    { path: '/admin/invitations', router: invitations },
    { path: '/admin/password-reset', router: reset },
    { path: '/admin/verify-password', router: verify },
  ];
}
