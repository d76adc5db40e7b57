/**
 * Staff accounts: sign-in and sign-out, invitations, role changes, disabling, password resets. Each
 * change writes its audit row in its own transaction; emails (invitation, reset) go out through the
 * outbox and the mail queue with the link's row id: the mail worker makes the single-use token as it
 * sends, and only its hash is stored.
 */
import type { Db, DbOrTx } from '@nh/server/db/client';
import type { StaffRow } from '@nh/server/db/schema';
import { auditDiff, recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { recordOutbox } from '@nh/server/queries/outbox';
import {
  deleteSessionsOf,
  deleteStaffSession,
  findStaffByEmail,
  findStaffById,
  findStaffToken,
  hashStaffToken,
  insertStaff,
  insertStaffSession,
  insertStaffToken,
  listOpenInvitations,
  listStaff,
  lockInvitationsTo,
  lockStaff,
  lockStaffForShare,
  newStaffToken,
  otherActiveOwners,
  spendStaffResets,
  revokeInvitation,
  revokeInvitationsOf,
  spendStaffToken,
  updateStaff,
  type StaffTokenRow,
} from '@nh/server/queries/staff';
import { decoyHash, hashPassword, verifyPassword } from '@nh/server/passwords';
import {
  mayInvite,
  STAFF_INVITATION_TTL_MS,
  STAFF_MESSAGES,
  STAFF_ROLES,
  STAFF_RESET_TTL_MS,
  STAFF_SESSION_TTL_MS,
  type AcceptInvitationInput,
  type InvitationDetails,
  type InviteStaffInput,
  type StaffInvitation,
  type StaffList,
  type StaffMe,
  type StaffMember,
  type UpdateStaffInput,
} from '@nh/shared/contracts/staff';
import { AppError } from '../../../lib/errors';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../../lib/db-errors';

const toMe = (s: Pick<StaffRow, 'id' | 'email' | 'name' | 'role'>): StaffMe => ({ id: s.id, email: s.email, name: s.name, role: s.role });

const toMember = (s: StaffRow): StaffMember => ({
  ...toMe(s),
  status: s.disabledAt ? 'disabled' : 'active',
  createdAt: s.createdAt.toISOString(),
  lastSignInAt: s.lastSignInAt?.toISOString() ?? null,
});

/** A new session for the account: the token for the cookie (the database keeps its hash). */
async function startSession(db: Db, staff: StaffRow, actor: AuditActor, action: 'staff.signed_in' | 'staff.invitation_accepted'): Promise<string> {
  const { token, hash } = newStaffToken();
  await db.transaction(async (tx) => {
    await insertStaffSession(tx, { tokenHash: hash, staffId: staff.id, expiresAt: new Date(Date.now() + STAFF_SESSION_TTL_MS), ip: actor.ip, userAgent: actor.userAgent });
    if (action === 'staff.signed_in') await recordAudit(tx, { ...actor, staffId: staff.id, email: staff.email, role: staff.role }, { action, entityType: 'staff', entityId: staff.id });
  });
  return token;
}

export type SignInOutcome = { kind: 'signed-in'; staff: StaffMe; token: string } | { kind: 'refused' } | { kind: 'disabled' };

/**
 * Checks the password (an unknown email costs as long as a known one) and starts a session. A failed
 * sign-in is audited under the email that was tried; a disabled account is told so only after the
 * right password.
 */
export async function signIn(db: Db, email: string, password: string, actor: AuditActor): Promise<SignInOutcome> {
  const staff = await findStaffByEmail(db, email);
  const matches = await verifyPassword(password, staff?.passwordHash ?? (await decoyHash()));
  if (!staff || !matches) {
    await recordAudit(db, { ...actor, staffId: staff?.id ?? null, email, role: staff?.role ?? null }, { action: 'staff.sign_in_failed', entityType: 'staff', entityId: staff?.id ?? email });
    return { kind: 'refused' };
  }
  if (staff.disabledAt) return { kind: 'disabled' };
  return { kind: 'signed-in', staff: toMe(staff), token: await startSession(db, staff, actor, 'staff.signed_in') };
}

export async function signOut(db: Db, token: string | null, actor: AuditActor | null): Promise<void> {
  if (!token) return;
  await db.transaction(async (tx) => {
    await deleteStaffSession(tx, hashStaffToken(token));
    if (actor) await recordAudit(tx, actor, { action: 'staff.signed_out', entityType: 'staff', entityId: actor.staffId ?? actor.email });
  });
}

const toInvitation = (t: { id: string; email: string; role: StaffRow['role'] | null; createdBy: string | null; expiresAt: Date; createdAt: Date }, names: Map<string, string>): StaffInvitation => ({
  id: t.id,
  email: t.email,
  role: t.role ?? 'support',
  invitedBy: t.createdBy ? (names.get(t.createdBy) ?? null) : null,
  expiresAt: t.expiresAt.toISOString(),
  createdAt: t.createdAt.toISOString(),
});

export async function listStaffAndInvitations(db: Db): Promise<StaffList> {
  const [staff, invitations] = await Promise.all([listStaff(db), listOpenInvitations(db)]);
  const names = new Map(staff.map((s) => [s.id, s.name]));
  return { staff: staff.map(toMember), invitations: invitations.map((t) => toInvitation(t, names)) };
}

/** An invitation (72 h, single use) for an address that has no account and no open invitation. */
export async function invite(db: Db, input: InviteStaffInput, actor: AuditActor): Promise<StaffInvitation> {
  return db.transaction(async (tx) => {
    if (await findStaffByEmail(tx, input.email)) throw new AppError('STAFF_EXISTS', STAFF_MESSAGES.staffExists);
    await lockInvitationsTo(tx, input.email);
    if ((await listOpenInvitations(tx, input.email)).length > 0) throw new AppError('STAFF_INVITATION_PENDING', STAFF_MESSAGES.invitationPending);
    const row = await insertStaffToken(tx, { purpose: 'invitation', email: input.email, role: input.role, createdBy: actor.staffId, expiresAt: new Date(Date.now() + STAFF_INVITATION_TTL_MS) });
    await recordOutbox(tx, 'staff.invited', { tokenId: row.id });
    await recordAudit(tx, actor, { action: 'staff.invited', entityType: 'staff', entityId: input.email, before: null, after: { email: input.email, role: input.role } });
    return toInvitation(row, new Map(actor.staffId ? [[actor.staffId, actor.email]] : []));
  });
}

type ReadStaff = (db: DbOrTx, id: string) => Promise<StaffRow | null>;

/**
 * An invitation is only as good as its sender: it can be accepted while its inviter is an active
 * account whose role may still invite the invited role (read with a share lock while it is spent).
 */
async function assertInviterStillInvites(db: DbOrTx, invitation: StaffTokenRow, read: ReadStaff = findStaffById) {
  const inviter = invitation.createdBy ? await read(db, invitation.createdBy) : null;
  if (!inviter || inviter.disabledAt || !mayInvite(inviter.role, invitation.role ?? 'support')) {
    throw new AppError('STAFF_INVITATION_INVITER_INACTIVE', STAFF_MESSAGES.invitationInviterInactive);
  }
}

/** The token's invitation, if it can still be accepted; otherwise the reason as an AppError. */
async function openInvitation(db: DbOrTx, token: string) {
  const row = await findStaffToken(db, hashStaffToken(token), 'invitation');
  if (!row) throw new AppError('STAFF_INVITATION_INVALID', STAFF_MESSAGES.invitationInvalid);
  if (row.usedAt) throw new AppError('STAFF_INVITATION_USED', STAFF_MESSAGES.invitationUsed);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('STAFF_INVITATION_EXPIRED', STAFF_MESSAGES.invitationExpired);
  await assertInviterStillInvites(db, row);
  return row;
}

export async function checkInvitation(db: Db, token: string): Promise<InvitationDetails> {
  const row = await openInvitation(db, token);
  return { email: row.email, role: row.role ?? 'support' };
}

/** Creates the account of an invitation (spent once, also under two clicks at once) and signs it in. */
export async function acceptInvitation(db: Db, input: AcceptInvitationInput, actor: AuditActor): Promise<{ staff: StaffMe; token: string }> {
  const invitation = await openInvitation(db, input.token);
  const passwordHash = await hashPassword(input.password);
  const created = await db.transaction(async (tx) => {
    // The inviter first (share lock), then the token: disabling them waits, or finds the invitation spent.
    await assertInviterStillInvites(tx, invitation, lockStaffForShare);
    const spent = await spendStaffToken(tx, invitation.id);
    if (!spent) {
      // Used, expired or revoked since it was read: say which.
      await openInvitation(tx, input.token);
      throw new AppError('STAFF_INVITATION_USED', STAFF_MESSAGES.invitationUsed);
    }
    if (await findStaffByEmail(tx, spent.email)) throw new AppError('STAFF_EXISTS', STAFF_MESSAGES.staffExists);
    try {
      const staff = await insertStaff(tx, { email: spent.email, name: input.name, role: spent.role ?? 'support', passwordHash });
      await recordAudit(tx, { ...actor, staffId: staff.id, email: staff.email, role: staff.role }, {
        action: 'staff.invitation_accepted',
        entityType: 'staff',
        entityId: staff.id,
        before: null,
        after: { email: staff.email, name: staff.name, role: staff.role },
      });
      return staff;
    } catch (error) {
      if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('STAFF_EXISTS', STAFF_MESSAGES.staffExists);
      throw error;
    }
  });
  return { staff: toMe(created), token: await startSession(db, created, actor, 'staff.invitation_accepted') };
}

/** The audit rows of revoked invitations: who was invited as what is gone with the row. */
const revokedAudit = (rows: StaffTokenRow[]) =>
  rows.map((row) => ({
    action: 'staff.invitation_revoked' as const,
    entityType: 'staff' as const,
    entityId: row.email,
    before: { email: row.email, role: row.role },
    after: null,
  }));

/** Revokes an open invitation (owners): its link stops working at once. */
export async function revokeStaffInvitation(db: Db, id: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await revokeInvitation(tx, id);
    if (!row) throw new AppError('NOT_FOUND', STAFF_MESSAGES.invitationNotOpen);
    await recordAudit(tx, actor, revokedAudit([row]));
  });
}

/**
 * A new role, or the account disabled or enabled. The shop keeps at least one active owner (owners'
 * rows are locked, so two owners demoting each other at once cannot both succeed). Disabling ends the
 * account's sessions in the same transaction, and a member disabled or demoted loses the open
 * invitations they could no longer send (each audited).
 */
export async function changeStaff(db: Db, id: string, input: UpdateStaffInput, actor: AuditActor): Promise<StaffMember> {
  if (input.role === undefined && input.disabled === undefined) throw new AppError('VALIDATION_FAILED', STAFF_MESSAGES.changeNothing);
  return db.transaction(async (tx) => {
    const before = await lockStaff(tx, id);
    if (!before) throw new AppError('NOT_FOUND', STAFF_MESSAGES.staffNotFound);
    const wasActiveOwner = before.role === 'owner' && !before.disabledAt;
    const staysActiveOwner = (input.role ?? before.role) === 'owner' && !(input.disabled ?? before.disabledAt !== null);
    if (wasActiveOwner && !staysActiveOwner && (await otherActiveOwners(tx, id)) === 0) throw new AppError('STAFF_LAST_OWNER', STAFF_MESSAGES.lastOwner);
    const disabledAt = input.disabled === undefined ? undefined : input.disabled ? (before.disabledAt ?? new Date()) : null;
    const after = await updateStaff(tx, id, { role: input.role, disabledAt });
    if (after.disabledAt && !before.disabledAt) await deleteSessionsOf(tx, id);
    const audit = (action: 'staff.role_changed' | 'staff.disabled' | 'staff.enabled', change: { before: Record<string, unknown>; after: Record<string, unknown> }) =>
      recordAudit(tx, actor, { action, entityType: 'staff', entityId: id, ...change });
    const roleChange = auditDiff({ role: before.role }, { role: after.role });
    if (roleChange) await audit('staff.role_changed', roleChange);
    if (Boolean(before.disabledAt) !== Boolean(after.disabledAt)) {
      await audit(after.disabledAt ? 'staff.disabled' : 'staff.enabled', { before: { status: before.disabledAt ? 'disabled' : 'active' }, after: { status: after.disabledAt ? 'disabled' : 'active' } });
    }
    // The open invitations they could no longer send go too (all of them when disabled).
    const unsendable = after.disabledAt ? STAFF_ROLES : STAFF_ROLES.filter((role) => !mayInvite(after.role, role));
    await recordAudit(tx, actor, revokedAudit(await revokeInvitationsOf(tx, id, unsendable)));
    return toMember(after);
  });
}

/**
 * A reset link (1 h, single use) for an active account; nothing for an unknown or disabled address.
 * The caller answers the same either way, in words and in time (it answers before this work is done),
 * so nothing can be learnt about who has an account.
 */
export async function requestPasswordReset(db: Db, email: string): Promise<boolean> {
  const staff = await findStaffByEmail(db, email);
  if (!staff || staff.disabledAt) return false;
  await db.transaction(async (tx) => {
    const row = await insertStaffToken(tx, { purpose: 'password_reset', email: staff.email, staffId: staff.id, expiresAt: new Date(Date.now() + STAFF_RESET_TTL_MS) });
    await recordOutbox(tx, 'staff.password-reset-requested', { tokenId: row.id });
  });
  return true;
}

/**
 * Sets the new password, spends the token (and every other open reset link of the account: a link
 * emailed earlier no longer works) and ends every session of the account; whose account it was.
 */
export async function confirmPasswordReset(db: Db, token: string, password: string, actor: AuditActor): Promise<{ email: string }> {
  const row = await findStaffToken(db, hashStaffToken(token), 'password_reset');
  if (!row || !row.staffId || row.usedAt || row.expiresAt.getTime() <= Date.now()) throw new AppError('STAFF_RESET_INVALID', STAFF_MESSAGES.resetInvalid);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const spent = await spendStaffToken(tx, row.id);
    const staff = spent?.staffId ? await lockStaff(tx, spent.staffId) : null;
    if (!spent || !staff || staff.disabledAt) throw new AppError('STAFF_RESET_INVALID', STAFF_MESSAGES.resetInvalid);
    await updateStaff(tx, staff.id, { passwordHash });
    await spendStaffResets(tx, staff.id);
    await deleteSessionsOf(tx, staff.id);
    await recordAudit(tx, { ...actor, staffId: staff.id, email: staff.email, role: staff.role }, { action: 'staff.password_reset', entityType: 'staff', entityId: staff.id });
    return { email: staff.email };
  });
}
