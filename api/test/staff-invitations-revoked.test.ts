/**
 * Invitations do not outlive their inviter (issue 19): an owner revokes an open invitation; disabling
 * or demoting a member revokes the open invitations they could no longer send, in the same transaction;
 * and an invitation whose inviter is no longer an active account allowed to invite that role is refused
 * when its link is checked or accepted (invitations sent before this rule, or an inviter changed outside
 * the back office). Each revocation is audited.
 *
 * Links are made here as `invite` and the mail worker make them (the row with its inviter, then the
 * token minted as the email would be sent), so the tests hold the raw token without a mailbox.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffToken } from '@nh/server/queries/staff';
import { auditPageSchema } from '@nh/shared/contracts/audit';
import { STAFF_INVITATION_TTL_MS, STAFF_MESSAGES, staffListSchema, type StaffRole } from '@nh/shared/contracts/staff';
import { mint } from './support/emailed-links';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let owner: StaffClient;

beforeAll(async () => {
  api = await startTestApi();
  owner = await signInAs(api, 'owner');
});
afterAll(() => api.close());

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@staff.test`;

/** An open invitation from `inviter`, with the raw token of its link. */
async function invitationFrom(inviter: StaffClient, role: StaffRole = 'support') {
  const email = newEmail('invited');
  const row = await insertStaffToken(api.ctx.db, {
    purpose: 'invitation',
    email,
    role,
    createdBy: inviter.id,
    expiresAt: new Date(Date.now() + STAFF_INVITATION_TTL_MS),
  });
  const [token] = await mint(api.ctx.db, 'staff.invited', [row.id]);
  return { id: row.id, email, token: token! };
}

const check = (token: string) => api.request('/api/admin/invitations/check', { method: 'POST', body: { token } });
const accept = (token: string) =>
  api.request('/api/admin/invitations/accept', { method: 'POST', body: { token, name: 'New Member', password: 'a long enough password' } });

async function openInvitationEmails(): Promise<string[]> {
  const list = staffListSchema.parse(await (await owner.request('/api/admin/staff')).json());
  return list.invitations.map((i) => i.email);
}

async function auditOf(filters: Record<string, string>) {
  const res = await owner.request(`/api/admin/audit?${new URLSearchParams(filters)}`);
  expect(res.status).toBe(200);
  return auditPageSchema.parse(await res.json()).entries;
}

async function accountExists(email: string): Promise<boolean> {
  const rows = await api.ctx.db.execute(sql`select 1 from staff where email = ${email}`);
  return rows.rows.length > 0;
}

describe('revoking an invitation', () => {
  it('an owner revokes an open invitation: it leaves the list, its link stops working, the address can be invited again, and it is audited', async () => {
    const email = newEmail('revoked');
    const sent = await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email, role: 'manager' } });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: string };
    expect(await openInvitationEmails()).toContain(email);

    const revoked = await owner.request(`/api/admin/staff/invitations/${id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect(await openInvitationEmails()).not.toContain(email);
    const [entry] = await auditOf({ action: 'staff.invitation_revoked', entityId: email });
    expect(entry).toMatchObject({
      actorEmail: owner.email,
      actorRole: 'owner',
      entityType: 'staff',
      before: { email, role: 'manager' },
      after: null,
    });

    // Twice (a double click, a second tab): the second says the invitation is no longer open, and audits nothing.
    const again = await owner.request(`/api/admin/staff/invitations/${id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ code: 'NOT_FOUND', message: STAFF_MESSAGES.invitationNotOpen });
    expect(await auditOf({ action: 'staff.invitation_revoked', entityId: email })).toHaveLength(1);
    expect((await owner.request('/api/admin/staff/invitations/not-a-uuid', { method: 'DELETE' })).status).toBe(404);

    expect((await owner.request('/api/admin/staff/invitations', { method: 'POST', body: { email, role: 'support' } })).status).toBe(201);
  });

  it("a revoked invitation's link is not valid any more, at the check and at acceptance", async () => {
    const invitation = await invitationFrom(owner);
    expect((await check(invitation.token)).status).toBe(200);
    expect((await owner.request(`/api/admin/staff/invitations/${invitation.id}`, { method: 'DELETE' })).status).toBe(204);
    for (const res of [await check(invitation.token), await accept(invitation.token)]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'STAFF_INVITATION_INVALID', message: STAFF_MESSAGES.invitationInvalid });
    }
    expect(await accountExists(invitation.email)).toBe(false);
  });

  it('an accepted invitation cannot be revoked (the account is disabled instead)', async () => {
    const invitation = await invitationFrom(owner);
    expect((await accept(invitation.token)).status).toBe(200);
    const res = await owner.request(`/api/admin/staff/invitations/${invitation.id}`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: STAFF_MESSAGES.invitationNotOpen });
  });
});

describe("an inviter's open invitations when they change", () => {
  it("disabling a member revokes their open invitations in the same change, each audited; other owners' stay open", async () => {
    const leaving = await signInAs(api, 'owner');
    const sent = await leaving.request('/api/admin/staff/invitations', {
      method: 'POST',
      body: { email: newEmail('by-leaving'), role: 'fulfilment' },
    });
    expect(sent.status).toBe(201);
    const byApi = (await sent.json()) as { email: string };
    const withLink = await invitationFrom(leaving, 'manager');
    const someoneElses = await invitationFrom(owner);

    const disabled = await owner.request(`/api/admin/staff/${leaving.id}`, { method: 'PATCH', body: { disabled: true } });
    expect(disabled.status).toBe(200);
    const open = await openInvitationEmails();
    expect(open).not.toContain(byApi.email);
    expect(open).not.toContain(withLink.email);
    expect(open).toContain(someoneElses.email);

    const res = await check(withLink.token);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'STAFF_INVITATION_INVALID' });
    expect((await check(someoneElses.token)).status).toBe(200);

    const [disabling] = await auditOf({ action: 'staff.disabled', entityId: leaving.id });
    for (const email of [byApi.email, withLink.email]) {
      const [entry] = await auditOf({ action: 'staff.invitation_revoked', entityId: email });
      // The disabling owner revoked them, in the disabling request.
      expect(entry).toMatchObject({ actorEmail: owner.email, requestId: disabling!.requestId, after: null });
    }
  });

  it('demoting an owner revokes the invitations their new role may not send; enabling or a new role that may invite revokes nothing', async () => {
    const demoted = await signInAs(api, 'owner');
    const invitation = await invitationFrom(demoted, 'support');
    expect((await owner.request(`/api/admin/staff/${demoted.id}`, { method: 'PATCH', body: { role: 'manager' } })).status).toBe(200);
    expect(await openInvitationEmails()).not.toContain(invitation.email);
    expect(await auditOf({ action: 'staff.invitation_revoked', entityId: invitation.email })).toHaveLength(1);

    const promoted = await signInAs(api, 'manager');
    expect((await owner.request(`/api/admin/staff/${promoted.id}`, { method: 'PATCH', body: { role: 'owner' } })).status).toBe(200);
    const kept = await invitationFrom(promoted, 'manager');
    expect((await owner.request(`/api/admin/staff/${promoted.id}`, { method: 'PATCH', body: { role: 'owner' } })).status).toBe(200);
    expect((await check(kept.token)).status).toBe(200);
  });
});

describe('accepting an invitation whose inviter may no longer send it', () => {
  // Invitations sent before revocation existed, or an inviter changed outside the back office: the
  // invitation is still open, and its inviter is checked when the link is opened and when it is accepted.
  const inviterInactive = { code: 'STAFF_INVITATION_INVITER_INACTIVE', message: STAFF_MESSAGES.invitationInviterInactive };

  it('refuses the link of an invitation whose inviter was disabled, with a message that says what to do', async () => {
    const inviter = await signInAs(api, 'owner');
    const invitation = await invitationFrom(inviter, 'manager');
    expect((await check(invitation.token)).status).toBe(200);
    await api.ctx.db.execute(sql`update staff set disabled_at = now() where id = ${inviter.id}`);

    for (const res of [await check(invitation.token), await accept(invitation.token)]) {
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual(inviterInactive);
    }
    expect(await accountExists(invitation.email)).toBe(false);
    // The invitation was not spent: should the inviter be enabled again, it works.
    await api.ctx.db.execute(sql`update staff set disabled_at = null where id = ${inviter.id}`);
    expect((await accept(invitation.token)).status).toBe(200);
    expect(await accountExists(invitation.email)).toBe(true);
  });

  it('refuses the link of an invitation whose inviter is no longer a role that may invite', async () => {
    const inviter = await signInAs(api, 'owner');
    const invitation = await invitationFrom(inviter, 'support');
    await api.ctx.db.execute(sql`update staff set role = 'manager' where id = ${inviter.id}`);
    for (const res of [await check(invitation.token), await accept(invitation.token)]) {
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual(inviterInactive);
    }
    expect(await accountExists(invitation.email)).toBe(false);
  });

  it('refuses an invitation with no inviter on record', async () => {
    const inviter = await signInAs(api, 'owner');
    const invitation = await invitationFrom(inviter);
    await api.ctx.db.execute(sql`update staff_tokens set created_by = null where id = ${invitation.id}`);
    const res = await accept(invitation.token);
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual(inviterInactive);
  });
});
