/** Staff accounts (owners: list, invite, revoke, role, disable), invitations and password resets. */
import type {
  AcceptInvitationInput,
  InvitationDetails,
  InviteStaffInput,
  StaffInvitation,
  StaffList,
  StaffMe,
  StaffMember,
  UpdateStaffInput,
} from '@nh/shared/contracts/staff';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, readJson } from '@/lib/query-client';
import { ADMIN_KEY, sendJson } from '../shell/api';

// ---------------------------------------------------------------- before sign-in
const checkInvitation = async (token: string) => readJson<InvitationDetails>(await sendJson('POST', '/api/admin/invitations/check', { token }));

export const acceptInvitation = async (input: AcceptInvitationInput) => readJson<StaffMe>(await sendJson('POST', '/api/admin/invitations/accept', input));

export const requestPasswordReset = async (email: string) => readJson<{ message: string }>(await sendJson('POST', '/api/admin/password-reset', { email }));

export const confirmPasswordReset = async (token: string, password: string) =>
  readJson<{ message: string }>(await sendJson('POST', '/api/admin/password-reset/confirm', { token, password }));

// ---------------------------------------------------------------- staff accounts (owner)
const listStaff = async () => readJson<StaffList>(await apiRequest('GET', '/api/admin/staff'));

export const inviteStaff = async (input: InviteStaffInput) => readJson<StaffInvitation>(await sendJson('POST', '/api/admin/staff/invitations', input));

/** DELETE /api/admin/staff/invitations/{id}: the invitation's link stops working at once (audited). */
export const revokeInvitation = async (id: string): Promise<void> => {
  await sendJson('DELETE', `/api/admin/staff/invitations/${encodeURIComponent(id)}`);
};

export const updateStaff = async (id: string, change: UpdateStaffInput) => readJson<StaffMember>(await sendJson('PATCH', `/api/admin/staff/${encodeURIComponent(id)}`, change));

export const staffQueries = {
  /** The staff accounts and the open invitations. */
  list: queryOptions({ queryKey: [...ADMIN_KEY, 'staff'], queryFn: listStaff, staleTime: 0 }),
  /** An emailed invitation, checked before the form (kept outside the admin key: nobody is signed in yet). */
  invitation: (token: string) => queryOptions({ queryKey: ['staff', 'invitation', token], queryFn: () => checkInvitation(token), retry: false, staleTime: Infinity }),
};
