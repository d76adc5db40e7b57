import { STAFF_MESSAGES, type StaffMe } from '@nh/shared/contracts/staff';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OrderManagerPage from '../orders/screens/order-manager';
import PromoManagerPage from '../promos/screens/promo-manager';
import { renderAdmin as renderWith } from '../testing/render-admin';
import { stubApi, type Reply } from '../testing/stub-api';

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const OWNER: StaffMe = { id: 's1', email: 'ada@example.com', name: 'Ada Lovelace', role: 'owner' };
const SUPPORT: StaffMe = { id: 's2', email: 'sam@example.com', name: 'Sam Support', role: 'support' };

function renderAdmin(path: string) {
  return renderWith(path, {
    signedIn: [
      // Signing out goes to /admin, which shows the sign-in screen once the session is gone.
      { path: '/admin', element: <p>dashboard</p> },
      { path: '/admin/promos', Component: PromoManagerPage },
      { path: '/admin-orders', Component: OrderManagerPage },
    ],
  });
}

const signedOut = { status: 401, body: { message: STAFF_MESSAGES.signInRequired, code: 'STAFF_SIGN_IN_REQUIRED' } };

describe('the admin layout', () => {
  it('shows the sign-in screen when signed out; a refused sign-in says so; signing in opens the screen, nothing stored in the browser', async () => {
    let me: Reply = signedOut;
    const calls = stubApi({
      'GET /api/admin/me': () => me,
      'POST /api/admin/session': (body) => {
        const { password } = body as { password: string };
        if (password !== 'correct horse battery') return { status: 401, body: { message: STAFF_MESSAGES.signInFailed, code: 'STAFF_SIGN_IN_FAILED' } };
        me = { status: 200, body: OWNER };
        return { status: 200, body: OWNER };
      },
      'POST /api/promo-codes/list': { status: 200, body: [] },
    });
    renderAdmin('/admin/promos');
    await screen.findByRole('heading', { name: 'Sign in', level: 1 });
    expect(screen.getByText(STAFF_MESSAGES.signInRequired)).toBeTruthy();
    expect(screen.getByRole<HTMLAnchorElement>('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/admin/forgot-password');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(STAFF_MESSAGES.emailInvalid)).toBeTruthy();
    expect(screen.getByText(STAFF_MESSAGES.passwordRequired)).toBeTruthy();

    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(STAFF_MESSAGES.signInFailed)).toBeTruthy();

    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Promo Code Manager', level: 1 });
    const frame = screen.getByTestId('signed-in-staff');
    expect(within(frame).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(frame).getByText('Owner')).toBeTruthy();

    const signIns = calls.filter((c) => c.url === '/api/admin/session');
    expect(signIns.at(-1)?.body).toEqual({ email: 'ada@example.com', password: 'correct horse battery' });
    // The admin calls carry no credential; the cookie authenticates.
    await waitFor(() => expect(calls.some((c) => c.url === '/api/promo-codes/list')).toBe(true));
    for (const call of calls.filter((c) => c.url !== '/api/admin/session')) expect(JSON.stringify(call.body ?? {})).not.toContain('password');
    expect(localStorage.length).toBe(0);
  });

  it('shows only the screens the role can use; a screen it cannot use shows the role message and calls no API', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: SUPPORT } });
    renderAdmin('/admin/promos');
    expect(await screen.findByText('Your role (Support) cannot manage promo codes. Ask an owner if you need it.')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Dashboard', 'Orders', 'Customers', 'Subscriptions', 'Claims']);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/admin/me']);
  });

  it('leaves out the export and the NetSuite panel for support, and lists orders', async () => {
    const calls = stubApi({ 'GET /api/admin/me': { status: 200, body: SUPPORT }, 'POST /api/admin/orders': { status: 200, body: [] } });
    renderAdmin('/admin-orders');
    expect(await screen.findByText('No orders found.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/admin/sync'))).toBe(false);
  });

  it('drops to the sign-in screen when an admin call answers 401', async () => {
    stubApi({ 'GET /api/admin/me': { status: 200, body: OWNER }, 'POST /api/promo-codes/list': signedOut });
    renderAdmin('/admin/promos');
    await screen.findByRole('heading', { name: 'Sign in', level: 1 });
    expect(screen.queryByRole('navigation', { name: 'Admin' })).toBeNull();
  });

  it('signs out with DELETE /api/admin/session and shows the sign-in screen', async () => {
    const calls = stubApi({
      'GET /api/admin/me': { status: 200, body: OWNER },
      'POST /api/promo-codes/list': { status: 200, body: [] },
      'DELETE /api/admin/session': { status: 204 },
    });
    const router = renderAdmin('/admin/promos');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    await screen.findByRole('heading', { name: 'Sign in', level: 1 });
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/session')).toBe(true);
  });
});
