import { Router } from 'express';
import { findStaffByEmail } from '@nh/server/queries/staff';
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
import type { AppContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { knownBrowsers } from '../../../lib/known-browser';
import { createLimiter, clientAddressKey } from '../../../lib/rate-limit';
import { resetRequestLimits } from '../../../lib/reset-request-limits';
import { clearSignInFailures, createSignInGuard } from '../../../lib/sign-in-guard';
import { actorOf, auditActorOf, clearStaffCookie, setStaffCookie, staffOf, staffTokenOf } from '../../../lib/staff-auth';
import { isUuid, parseInput } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { acceptInvitation, changeStaff, checkInvitation, confirmPasswordReset, invite, listStaffAndInvitations, requestPasswordReset, revokeStaffInvitation, signIn, signOut } from './service';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Staff sign-in and sign-out, the signed-in member, staff accounts, invitations and password resets. */
export function staffArea(ctx: AppContext, { guard, afterAnswer }: AdminDeps): AdminArea[] {
  const { db } = ctx;
  const known = knownBrowsers(ctx.config);
  // The sign-in limits (lib/sign-in-guard.ts): hard per (account, address) and per address; the
  // account-wide count only slows browsers new to the account down, and tells the holder by email.
  const signInGuard = createSignInGuard(ctx, {
    realm: 'staff',
    message: STAFF_MESSAGES.tooManySignIns,
    known,
    holderOf: async (email) => {
      const member = await findStaffByEmail(db, email);
      return member && !member.disabledAt ? member.id : null;
    },
  });
  // Reset and invitation-token requests per address (each may send an email or probe a token).
  const tokenLimiter = createLimiter(ctx, { name: 'staff-tokens', windowMs: FIFTEEN_MINUTES, limit: 20, message: STAFF_MESSAGES.tooManyTokenRequests, key: clientAddressKey }).middleware;

  const session = Router();
  session.post('/', signInGuard.addressLimit, async (req, res) => {
    const { email, password } = parseInput(staffSignInSchema, req.body);
    const attempt = await signInGuard.begin(req, res, email);
    const outcome = await signIn(db, email, password, auditActorOf(req, null, email));
    if (outcome.kind !== 'signed-in') await attempt.failed();
    if (outcome.kind === 'refused') throw new AppError('STAFF_SIGN_IN_FAILED', STAFF_MESSAGES.signInFailed);
    if (outcome.kind === 'disabled') throw new AppError('STAFF_ACCOUNT_DISABLED', STAFF_MESSAGES.accountDisabled);
    setStaffCookie(ctx, res, outcome.token);
    await attempt.succeeded();
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
    known.remember(req, res, 'staff', member.email);
    setStaffCookie(ctx, res, token);
    res.json(member);
  });

  // Reset emails per (email, address) and per email (a browser that signed in to the account passes
  // the email-wide cap): many addresses cannot flood one member's inbox (lib/reset-request-limits.ts).
  const resetEmailLimits = resetRequestLimits(ctx, {
    name: 'staff-reset',
    realm: 'staff',
    known,
    message: STAFF_MESSAGES.tooManyResetEmails,
    windowMs: 4 * FIFTEEN_MINUTES,
    perEmailAtAddress: 5,
    perEmail: 10,
  });

  const reset = Router();
  // Answered before the work: the time of the answer must not tell whether the address has an account.
  reset.post('/', tokenLimiter, ...resetEmailLimits, (req, res) => {
    const { email } = parseInput(requestStaffResetSchema, req.body);
    afterAnswer.run(req.log, 'staff password reset request', () => requestPasswordReset(db, email));
    res.status(202).json({ message: STAFF_MESSAGES.resetSent });
  });
  reset.post('/confirm', tokenLimiter, async (req, res) => {
    const { token, password } = parseInput(confirmStaffResetSchema, req.body);
    const { email } = await confirmPasswordReset(db, token, password, auditActorOf(req, null));
    // The holder proved the account is theirs: whatever was counted against it is gone.
    await clearSignInFailures(ctx, 'staff', email);
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
