/**
 * Staff accounts, their server-side sessions and their single-use emailed tokens (invitations and
 * password resets). Tokens are random; only their SHA-256 is stored, so a copy of the database signs
 * nobody in.
 */
import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { StaffRole } from '@nh/shared/contracts/staff';
import type { Db, DbOrTx } from '../db/client';
import { staff, staffSessions, staffTokens, type StaffRow } from '../db/schema';
import { hashSingleUseToken, newSingleUseToken, unsentTokenHash } from './single-use-tokens';

/** Staff tokens follow the shared single-use rule (./single-use-tokens). */
export const newStaffToken = newSingleUseToken;
export const hashStaffToken = hashSingleUseToken;

export async function findStaffByEmail(db: DbOrTx, email: string): Promise<StaffRow | null> {
  const [row] = await db.select().from(staff).where(eq(staff.email, email.toLowerCase()));
  return row ?? null;
}

export async function findStaffById(db: DbOrTx, id: string): Promise<StaffRow | null> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id));
  return row ?? null;
}

export async function countStaff(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(staff);
  return row?.n ?? 0;
}

export async function insertStaff(tx: DbOrTx, values: { email: string; name: string; role: StaffRole; passwordHash: string }): Promise<StaffRow> {
  const [row] = await tx
    .insert(staff)
    .values({ ...values, email: values.email.toLowerCase() })
    .returning();
  return row!;
}

export async function listStaff(db: Db): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(asc(staff.createdAt), asc(staff.id));
}

/** Active owners other than `exceptId`, rows locked so that two owners cannot demote each other at once. */
export async function otherActiveOwners(tx: DbOrTx, exceptId: string): Promise<number> {
  const rows = await tx
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.role, 'owner'), isNull(staff.disabledAt), sql`${staff.id} <> ${exceptId}`))
    .for('update');
  return rows.length;
}

/**
 * The account read under a share lock, or null: an invitation's inviter while the invitation is spent,
 * so that disabling or demoting them (which locks the row for update) happens wholly before or after.
 */
export async function lockStaffForShare(tx: DbOrTx, id: string): Promise<StaffRow | null> {
  const [row] = await tx.select().from(staff).where(eq(staff.id, id)).for('share');
  return row ?? null;
}

/** The account locked for a change (role, disabled), or null. */
export async function lockStaff(tx: DbOrTx, id: string): Promise<StaffRow | null> {
  const [row] = await tx.select().from(staff).where(eq(staff.id, id)).for('update');
  return row ?? null;
}

export async function updateStaff(tx: DbOrTx, id: string, set: { role?: StaffRole; disabledAt?: Date | null; passwordHash?: string }): Promise<StaffRow> {
  const [row] = await tx
    .update(staff)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(staff.id, id))
    .returning();
  return row!;
}

// ---------------------------------------------------------------- sessions
export async function insertStaffSession(tx: DbOrTx, s: { tokenHash: string; staffId: string; expiresAt: Date; ip: string | null; userAgent: string | null }): Promise<void> {
  await tx.insert(staffSessions).values({ ...s, userAgent: s.userAgent?.slice(0, 500) ?? null });
  await tx.update(staff).set({ lastSignInAt: new Date() }).where(eq(staff.id, s.staffId));
}

/** The signed-in staff member of a session token: unexpired, and the account not disabled. */
export async function findSessionStaff(db: Db, tokenHash: string): Promise<Pick<StaffRow, 'id' | 'email' | 'name' | 'role'> | null> {
  const [row] = await db
    .select({ id: staff.id, email: staff.email, name: staff.name, role: staff.role })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.tokenHash, tokenHash), gt(staffSessions.expiresAt, sql`now()`), isNull(staff.disabledAt)));
  return row ?? null;
}

export async function deleteStaffSession(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash));
}

/** Ends every session of an account (disabled, or its password reset). */
export async function deleteSessionsOf(tx: DbOrTx, staffId: string): Promise<void> {
  await tx.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
}

/** Housekeeping: sessions past their expiry (they sign nobody in), at most `batch` of them. */
export async function deleteExpiredStaffSessions(db: DbOrTx, batch: number): Promise<number> {
  const expired = db.select({ tokenHash: staffSessions.tokenHash }).from(staffSessions).where(sql`${staffSessions.expiresAt} < now()`).limit(batch);
  const rows = await db.delete(staffSessions).where(inArray(staffSessions.tokenHash, expired)).returning({ tokenHash: staffSessions.tokenHash });
  return rows.length;
}

// ---------------------------------------------------------------- single-use tokens
export type StaffTokenRow = typeof staffTokens.$inferSelect;

/** A new link's row; its token is made by the mail worker when the email is sent (./single-use-tokens). */
export async function insertStaffToken(
  tx: DbOrTx,
  values: { purpose: 'invitation' | 'password_reset'; email: string; role?: StaffRole | null; staffId?: string | null; createdBy?: string | null; expiresAt: Date },
): Promise<StaffTokenRow> {
  const [row] = await tx
    .insert(staffTokens)
    .values({ ...values, tokenHash: unsentTokenHash(), email: values.email.toLowerCase() })
    .returning();
  return row!;
}

export async function findStaffToken(db: DbOrTx, tokenHash: string, purpose: 'invitation' | 'password_reset'): Promise<StaffTokenRow | null> {
  const [row] = await db
    .select()
    .from(staffTokens)
    .where(and(eq(staffTokens.tokenHash, tokenHash), eq(staffTokens.purpose, purpose)));
  return row ?? null;
}

/** Spends a token: once, and only before it expires. Null when it was spent or expired meanwhile. */
export async function spendStaffToken(tx: DbOrTx, id: string): Promise<StaffTokenRow | null> {
  const [row] = await tx
    .update(staffTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(staffTokens.id, id), isNull(staffTokens.usedAt), gt(staffTokens.expiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}

/** Spends every open reset link of an account (its password just changed): links emailed earlier stop working. */
export async function spendStaffResets(tx: DbOrTx, staffId: string): Promise<void> {
  await tx
    .update(staffTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(staffTokens.staffId, staffId), eq(staffTokens.purpose, 'password_reset'), isNull(staffTokens.usedAt)));
}

/** Serialises invitations of one address until the caller's transaction ends (two owners inviting at once make one invitation). */
export async function lockInvitationsTo(tx: DbOrTx, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`staff-invite:${email}`}))`);
}

/** An invitation neither used nor expired (a revoked one is deleted). */
const openInvitation = () => and(eq(staffTokens.purpose, 'invitation'), isNull(staffTokens.usedAt), gt(staffTokens.expiresAt, sql`now()`));

/** Invitations neither used nor expired, oldest first. */
export async function listOpenInvitations(db: DbOrTx, email?: string): Promise<StaffTokenRow[]> {
  return db
    .select()
    .from(staffTokens)
    .where(and(openInvitation(), email === undefined ? undefined : eq(staffTokens.email, email.toLowerCase())))
    .orderBy(asc(staffTokens.createdAt));
}

/**
 * Revokes an open invitation: its row is deleted, so its link answers "not valid" like any unknown link
 * (the audit trail keeps who sent and who revoked it). Null when it is no longer open (accepted, revoked
 * or expired meanwhile).
 */
export async function revokeInvitation(tx: DbOrTx, id: string): Promise<StaffTokenRow | null> {
  const [row] = await tx
    .delete(staffTokens)
    .where(and(eq(staffTokens.id, id), openInvitation()))
    .returning();
  return row ?? null;
}

/**
 * Revokes the open invitations `staffId` sent for one of `roles` (they were disabled, or may no longer
 * invite those roles); the revoked rows.
 */
export async function revokeInvitationsOf(tx: DbOrTx, staffId: string, roles: readonly StaffRole[]): Promise<StaffTokenRow[]> {
  if (roles.length === 0) return [];
  return tx
    .delete(staffTokens)
    .where(and(eq(staffTokens.createdBy, staffId), inArray(staffTokens.role, [...roles]), openInvitation()))
    .returning();
}

/** The data an invitation or reset email needs: the token row and who sent it. */
export async function findStaffTokenById(db: DbOrTx, id: string): Promise<(StaffTokenRow & { inviterName: string | null }) | null> {
  const [row] = await db
    .select({ token: staffTokens, inviterName: staff.name })
    .from(staffTokens)
    .leftJoin(staff, eq(staff.id, staffTokens.createdBy))
    .where(eq(staffTokens.id, id));
  return row ? { ...row.token, inviterName: row.inviterName } : null;
}
