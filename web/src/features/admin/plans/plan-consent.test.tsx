import type { StaffMe } from '@nh/shared/contracts/staff';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAdmin } from '../testing/render-admin';
import { stubApi } from '../testing/stub-api';
import { stubBrowserForRadix } from '../testing/jsdom';
import { PLAN_ID, planDetail } from '../testing/plan-fixtures';
import SubscriptionDetailPage from './screens/subscription-detail';

stubBrowserForRadix();

const SUPPORT: StaffMe = { id: 's4', email: 'sam@example.com', name: 'Sam Support', role: 'support' };
const TERMS = 'Subscribe & Save 15%\nGet this order delivered every 2 months with 15% off and free shipping. Cancel anytime.';
const CONSENT = {
  termsVersion: 'sns-terms-2026-11-28',
  termsText: TERMS,
  agreedAmount: '36.72',
  cadence: 'Every 2 months',
  agreedAt: '2026-01-10T14:30:00.000Z',
  shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
  anonymised: false,
};

function openPlan(body: ReturnType<typeof planDetail>) {
  stubApi({ 'GET /api/admin/me': { status: 200, body: SUPPORT }, [`GET /api/admin/subscriptions/${PLAN_ID}`]: { status: 200, body } });
  renderAdmin(`/admin/subscriptions/${PLAN_ID}`, { signedIn: [{ path: '/admin/subscriptions/:id', Component: SubscriptionDetailPage }] });
}

describe('the Consent section of the staff plan page', () => {
  it('shows the terms version, agreed price, cadence, time, address and browser, and opens the exact text', async () => {
    openPlan(planDetail({ consent: CONSENT, priceNotices: [{ fromAmount: '36.72', toAmount: '39.10', firstChargeOn: '2026-03-10', sentAt: '2026-03-01T06:00:00.000Z' }] }));
    const section = await screen.findByTestId('plan-consent');
    expect(within(section).getByRole('heading', { name: 'Consent' })).toBeTruthy();
    expect(within(section).getByText('sns-terms-2026-11-28')).toBeTruthy();
    expect(within(section).getByText('$36.72')).toBeTruthy();
    expect(within(section).getByText('Every 2 months')).toBeTruthy();
    expect(within(section).getByText(/Jan 10, 2026/)).toBeTruthy();
    expect(within(section).getByText('1 Main St, Springfield, IL 62701')).toBeTruthy();
    expect(within(section).getByText(CONSENT.userAgent)).toBeTruthy();
    const text = within(section).getByTestId('consent-terms-text');
    const details = text.closest('details')!;
    expect(details.open).toBe(false);
    await userEvent.setup().click(within(section).getByText('Read the exact terms the customer agreed to'));
    expect(details.open).toBe(true);
    expect(within(text).getAllByRole('paragraph').map((p) => p.textContent)).toEqual(TERMS.split('\n'));
    expect(within(section).getByTestId('price-notices').textContent).toContain('$36.72 to $39.10 per delivery, from the delivery of March 10, 2026');
  });

  it('says so for a plan without a consent on record', async () => {
    openPlan(planDetail());
    expect(await screen.findByText(/No consent on record/)).toBeTruthy();
    expect(screen.getByText('No price-change notice sent.')).toBeTruthy();
  });

  it('shows an anonymised consent without its personal fields', async () => {
    openPlan(planDetail({ consent: { ...CONSENT, shippingAddress: null, userAgent: null, anonymised: true } }));
    const section = await screen.findByTestId('plan-consent');
    expect(within(section).getAllByText('Removed (anonymised)')).toHaveLength(2);
    expect(within(section).getByText('$36.72')).toBeTruthy();
  });
});
