import { STAFF_MESSAGES, STAFF_ROLE_DESCRIPTIONS, type StaffList, type StaffMe, type StaffMember } from '@nh/shared/contracts/staff';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import { PASSWORDS_DIFFER } from './password-form';
import AcceptInvitationPage from './screens/accept-invitation';
import ForgotPasswordPage from './screens/forgot-password';
import ResetPasswordPage from './screens/reset-password';
import StaffManagerPage from './screens/staff-manager';
import { stubBrowserForRadix } from '../testing/jsdom';

stubBrowserForRadix();

const OWNER: StaffMe = { id: 's1', email: 'ada@example.com', name: 'Ada Lovelace', role: 'owner' };
const member = (overrides: Partial<StaffMember>): StaffMember => ({
  id: 's1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  role: 'owner',
  status: 'active',
  createdAt: '2025-01-01T10:00:00.000Z',
  lastSignInAt: '2025-03-01T10:00:00.000Z',
  ...overrides,
});
const GRACE = member({ id: 's2', email: 'grace@example.com', name: 'Grace Hopper', role: 'fulfilment', lastSignInAt: null });
const LINUS = member({ id: 's3', email: 'linus@example.com', name: 'Linus Disabled', role: 'support', status: 'disabled' });
const TOKEN = 'a'.repeat(43);

const staffPage = () => renderAdmin('/admin/staff', { signedIn: [{ path: '/admin/staff', Component: StaffManagerPage }] });

describe('the Staff screen', () => {
  it('lists staff with role and status words and the open invitations; invites with a role', async () => {
    let list: StaffList = {
      staff: [member({}), GRACE, LINUS],
      invitations: [{ id: 'i1', email: 'old@example.com', role: 'support', invitedBy: 'ada@example.com', expiresAt: '2025-03-04T10:00:00.000Z', createdAt: '2025-03-01T10:00:00.000Z' }],
    };
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: OWNER },
      'GET /api/admin/staff': () => ({ status: 200, body: list }),
      'POST /api/admin/staff/invitations': (body) => {
        const invitation = { id: 'i2', email: 'new@example.com', role: 'manager' as const, invitedBy: 'ada@example.com', expiresAt: '2025-03-05T10:00:00.000Z', createdAt: '2025-03-02T10:00:00.000Z' };
        expect(body).toEqual({ email: 'new@example.com', role: 'manager' });
        list = { ...list, invitations: [...list.invitations, invitation] };
        return { status: 201, body: invitation };
      },
    });
    staffPage();
    const grace = await screen.findByTestId('staff-grace@example.com');
    expect(within(grace).getByText('Active')).toBeTruthy();
    expect(within(grace).getByText('Never')).toBeTruthy();
    expect(within(grace).getByRole('combobox', { name: 'Role of Grace Hopper' }).textContent).toBe('Fulfilment');
    expect(within(screen.getByTestId('staff-linus@example.com')).getByText('Disabled')).toBeTruthy();
    expect(within(screen.getByTestId('staff-linus@example.com')).getByRole('button', { name: 'Enable Linus Disabled' })).toBeTruthy();
    expect(within(screen.getByTestId('invitation-old@example.com')).getByText('Support')).toBeTruthy();
    for (const description of Object.values(STAFF_ROLE_DESCRIPTIONS)) expect(screen.getByText(description)).toBeTruthy();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'New@Example.com');
    await user.click(screen.getByRole('radio', { name: /^Manager/ }));
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByTestId('invitation-new@example.com')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('shows the server refusal of an invitation', async () => {
    stubApi({
      'GET /api/admin/me': { status: 200, body: OWNER },
      'GET /api/admin/staff': { status: 200, body: { staff: [member({})], invitations: [] } },
      'POST /api/admin/staff/invitations': { status: 409, body: { message: STAFF_MESSAGES.staffExists, code: 'STAFF_EXISTS' } },
    });
    staffPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(STAFF_MESSAGES.staffExists)).toBeTruthy();
  });

  it('disables an account after a confirmation, changes a role, and shows the last-owner refusal', async () => {
    const patches: unknown[] = [];
    stubApi({
      'GET /api/admin/me': { status: 200, body: OWNER },
      'GET /api/admin/staff': { status: 200, body: { staff: [member({}), GRACE], invitations: [] } },
      'PATCH /api/admin/staff/s2': (body) => {
        patches.push(body);
        const change = body as { role?: StaffMember['role']; disabled?: boolean };
        return { status: 200, body: { ...GRACE, ...(change.role && { role: change.role }), ...(change.disabled && { status: 'disabled' }) } };
      },
      'PATCH /api/admin/staff/s1': { status: 409, body: { message: STAFF_MESSAGES.lastOwner, code: 'STAFF_LAST_OWNER' } },
    });
    staffPage();
    const user = userEvent.setup();
    const grace = await screen.findByTestId('staff-grace@example.com');
    await user.click(within(grace).getByRole('button', { name: 'Disable Grace Hopper' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Disable Grace Hopper?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    await waitFor(() => expect(within(screen.getByTestId('staff-grace@example.com')).getByText('Disabled')).toBeTruthy());
    expect(patches).toEqual([{ disabled: true }]);

    await user.click(within(screen.getByTestId('staff-grace@example.com')).getByRole('combobox', { name: 'Role of Grace Hopper' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await waitFor(() => expect(patches).toEqual([{ disabled: true }, { role: 'manager' }]));
    await waitFor(() => expect(within(screen.getByTestId('staff-grace@example.com')).getByRole('combobox').textContent).toBe('Manager'));

    await user.click(within(screen.getByTestId('staff-ada@example.com')).getByRole('button', { name: 'Disable Ada Lovelace' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disable account' }));
    expect(await screen.findByText(STAFF_MESSAGES.lastOwner)).toBeTruthy();
    expect(within(screen.getByTestId('staff-ada@example.com')).getByText('Active')).toBeTruthy();
  });

  it('revokes an open invitation after a confirmation; a cancelled confirmation sends nothing', async () => {
    const open = {
      id: 'i1',
      email: 'old@example.com',
      role: 'support' as const,
      invitedBy: 'Ada Lovelace',
      expiresAt: '2025-03-04T10:00:00.000Z',
      createdAt: '2025-03-01T10:00:00.000Z',
    };
    let list: StaffList = { staff: [member({})], invitations: [open] };
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: OWNER },
      'GET /api/admin/staff': () => ({ status: 200, body: list }),
      'DELETE /api/admin/staff/invitations/i1': () => {
        list = { ...list, invitations: [] };
        return { status: 204 };
      },
    });
    staffPage();
    const user = userEvent.setup();
    const revokeButton = () =>
      within(screen.getByTestId('invitation-old@example.com')).getByRole('button', { name: 'Revoke the invitation of old@example.com' });
    await screen.findByTestId('invitation-old@example.com');
    await user.click(revokeButton());
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Revoke the invitation of old@example.com?')).toBeTruthy();
    expect(within(dialog).getByText(/stops working at once/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(revokeButton());
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke invitation' }));
    expect(await screen.findByText('No open invitations.')).toBeTruthy();
    expect(screen.getAllByText(STAFF_MESSAGES.invitationRevoked).length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/admin/staff/invitations/i1']);
  });

  it("shows the server's words when the invitation was no longer open", async () => {
    const open = {
      id: 'i1',
      email: 'old@example.com',
      role: 'support' as const,
      invitedBy: null,
      expiresAt: '2025-03-04T10:00:00.000Z',
      createdAt: '2025-03-01T10:00:00.000Z',
    };
    stubApi({
      'GET /api/admin/me': { status: 200, body: OWNER },
      'GET /api/admin/staff': { status: 200, body: { staff: [member({})], invitations: [open] } },
      'DELETE /api/admin/staff/invitations/i1': { status: 404, body: { message: STAFF_MESSAGES.invitationNotOpen, code: 'NOT_FOUND' } },
    });
    staffPage();
    const user = userEvent.setup();
    await user.click(within(await screen.findByTestId('invitation-old@example.com')).getByRole('button', { name: /^Revoke/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke invitation' }));
    expect((await screen.findAllByText(STAFF_MESSAGES.invitationNotOpen)).length).toBeGreaterThan(0);
  });

  it('shows the role message to a manager and does not ask for the list', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: { ...OWNER, role: 'manager' } } });
    staffPage();
    expect(await screen.findByText('Your role (Manager) cannot manage staff accounts. Ask an owner if you need it.')).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/admin/me']);
  });
});

const invitePage = (token: string, where: '#' | '?' = '#') =>
  renderAdmin(`/admin/invite${where}token=${token}`, {
    open: [{ path: '/admin/invite', Component: AcceptInvitationPage }],
    signedIn: [{ path: '/admin', element: <p>back office home</p> }],
  });

describe('accepting an invitation', () => {
  it('shows the email and role, checks the passwords match, creates the account and opens the back office', async () => {
    const calls = stubApi({
      'POST /api/admin/invitations/check': { status: 200, body: { email: 'new@example.com', role: 'manager' } },
      'POST /api/admin/invitations/accept': { status: 200, body: { id: 's9', email: 'new@example.com', name: 'Nia New', role: 'manager' } },
    });
    const router = invitePage(TOKEN);
    expect(await screen.findByText('new@example.com')).toBeTruthy();
    expect(screen.getByText('Manager')).toBeTruthy();
    expect(calls[0]?.body).toEqual({ token: TOKEN });
    // The link's token is out of the address as soon as it is read (the history keeps no copy).
    expect(router.state.location).toMatchObject({ pathname: '/admin/invite', search: '', hash: '' });

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Your name'), 'Nia New');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'different');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(STAFF_MESSAGES.passwordTooShort)).toBeTruthy();
    expect(screen.getByText(PASSWORDS_DIFFER)).toBeTruthy();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a long enough password');
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('back office home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin');
    expect(calls.find((c) => c.url === '/api/admin/invitations/accept')?.body).toEqual({ token: TOKEN, name: 'Nia New', password: 'a long enough password' });
    // Signed in by the answer: no extra /me round trip before the back office shows.
    expect(calls.some((c) => c.url === '/api/admin/me')).toBe(false);
  });

  it("shows the server's words for an expired invitation, and 'not valid' for a malformed link", async () => {
    stubApi({ 'POST /api/admin/invitations/check': { status: 410, body: { message: STAFF_MESSAGES.invitationExpired, code: 'STAFF_INVITATION_EXPIRED' } } });
    invitePage(TOKEN);
    expect(await screen.findByText(STAFF_MESSAGES.invitationExpired)).toBeTruthy();
    cleanup();
    const calls = stubApi({});
    invitePage('short');
    expect(await screen.findByText(STAFF_MESSAGES.invitationInvalid)).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('still opens a link emailed before the token moved to the fragment (?token=), and takes the token out of the address', async () => {
    const calls = stubApi({ 'POST /api/admin/invitations/check': { status: 200, body: { email: 'new@example.com', role: 'support' } } });
    const router = invitePage(TOKEN, '?');
    expect(await screen.findByText('new@example.com')).toBeTruthy();
    expect(calls[0]?.body).toEqual({ token: TOKEN });
    expect(router.state.location).toMatchObject({ pathname: '/admin/invite', search: '', hash: '' });
  });
});

describe('forgotten passwords', () => {
  it('always answers with the same words', async () => {
    const calls = stubApi({ 'POST /api/admin/password-reset': { status: 202, body: { message: STAFF_MESSAGES.resetSent } } });
    renderAdmin('/admin/forgot-password', { open: [{ path: '/admin/forgot-password', Component: ForgotPasswordPage }] });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'someone@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(STAFF_MESSAGES.resetSent)).toBeTruthy();
    expect(calls[0]?.body).toEqual({ email: 'someone@example.com' });
  });

  it('sets a new password with the link, then offers to sign in; a used link says so', async () => {
    let answer = { status: 200, body: { message: STAFF_MESSAGES.passwordChanged } as unknown };
    const calls = stubApi({ 'POST /api/admin/password-reset/confirm': () => answer });
    const open = { open: [{ path: '/admin/reset-password', Component: ResetPasswordPage }] };
    const router = renderAdmin(`/admin/reset-password#token=${TOKEN}`, open);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'a brand new password');
    expect(router.state.location).toMatchObject({ pathname: '/admin/reset-password', search: '', hash: '' });
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(STAFF_MESSAGES.passwordChanged)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/admin');
    expect(calls[0]?.body).toEqual({ token: TOKEN, password: 'a brand new password' });

    cleanup();
    answer = { status: 410, body: { message: STAFF_MESSAGES.resetInvalid, code: 'STAFF_RESET_INVALID' } };
    // A link emailed before the token moved to the fragment still works.
    renderAdmin(`/admin/reset-password?token=${TOKEN}`, open);
    await user.type(await screen.findByLabelText('New password'), 'a brand new password');
    await user.type(screen.getByLabelText('Confirm new password'), 'a brand new password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(STAFF_MESSAGES.resetInvalid)).toBeTruthy();
  });
});
