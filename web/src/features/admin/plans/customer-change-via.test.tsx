/** Staff read how a customer made a change: one made through a one-click email link says "via email link" in words. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeWords, PlanCustomerChanges } from './components/plan-customer-changes';

afterEach(cleanup);

describe("the customer's own changes on the staff plan page", () => {
  it('words a change made through an emailed link "via email link", and one on My Subscriptions without it', () => {
    expect(changeWords({ actor: 'customer', kind: 'skipped', via: 'email-link' })).toBe(
      'Customer: Skipped the next delivery (via email link)',
    );
    expect(changeWords({ actor: 'customer', kind: 'skipped', via: null })).toBe('Customer: Skipped the next delivery');
    expect(changeWords({ actor: 'customer', kind: 'cancelled' })).toBe('Customer: Cancelled the plan');
    render(
      <PlanCustomerChanges
        plan={{
          customerChanges: [
            {
              id: 7,
              at: '2026-03-01T10:00:00.000Z',
              actor: 'customer',
              kind: 'ship-now',
              before: null,
              after: { period: '2026-03-01' },
              via: 'email-link',
            },
          ],
        }}
      />,
    );
    expect(screen.getByTestId('customer-change-7').textContent).toContain('Customer: Shipped the next delivery now (via email link)');
    expect(screen.getByTestId('customer-change-7').textContent).not.toContain('email-link');
  });
});
