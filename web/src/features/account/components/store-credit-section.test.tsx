import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreCreditView } from '@nh/shared/contracts/store-credit';
import { StoreCreditSection } from './store-credit-section';

afterEach(cleanup);

const show = (credit: StoreCreditView) => {
  const router = createMemoryRouter([{ path: '/', element: <StoreCreditSection credit={credit} /> }]);
  render(<RouterProvider router={router} />);
};

describe("the shopper's store credit", () => {
  it('shows the balance and each movement in words, signed, with its order', () => {
    show({
      balance: '5.01',
      entries: [
        { id: 2, kind: 'spend', label: 'Used on an order', amount: '-9.99', balanceAfter: '5.01', orderId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', expiresAt: null, createdAt: '2026-02-01T10:00:00.000Z' },
        { id: 1, kind: 'grant', label: 'Credit given', amount: '15.00', balanceAfter: '15.00', orderId: null, expiresAt: null, createdAt: '2026-01-01T10:00:00.000Z' },
      ],
    });
    expect(screen.getByRole('heading', { name: 'Store credit: $5.01' })).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Store credit history' })).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('Used on an order');
    expect(rows[0]!.textContent).toContain('-$9.99');
    expect(within(rows[0]!).getByRole('link', { name: 'Order 0a1b2c3d' }).getAttribute('href')).toBe('/account/orders/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    expect(rows[1]!.textContent).toContain('Credit given');
    expect(rows[1]!.textContent).toContain('+$15.00');
    expect(screen.queryByText(/grant|spend/)).toBeNull();
  });

  it('shows when goodwill credit expires, and an expiry in words', () => {
    show({
      balance: '0.00',
      entries: [
        { id: 3, kind: 'expire', label: 'Expired', amount: '-5.00', balanceAfter: '0.00', orderId: null, expiresAt: null, createdAt: '2020-01-02T10:00:00.000Z' },
        { id: 2, kind: 'grant', label: 'Credit given', amount: '5.00', balanceAfter: '5.00', orderId: null, expiresAt: '2020-01-01T10:00:00.000Z', createdAt: '2019-01-01T10:00:00.000Z' },
        { id: 1, kind: 'grant', label: 'Credit given', amount: '5.00', balanceAfter: '5.00', orderId: null, expiresAt: '2099-06-01T10:00:00.000Z', createdAt: '2026-01-01T10:00:00.000Z' },
      ],
    });
    const rows = within(screen.getByRole('list', { name: 'Store credit history' })).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('Expired');
    expect(rows[0]!.textContent).toContain('-$5.00');
    expect(rows[1]!.textContent).toMatch(/expired January 1, 2020/);
    expect(rows[2]!.textContent).toMatch(/expires June 1, 2099/);
  });

  it('shows nothing to a shopper who never had credit', () => {
    show({ balance: '0.00', entries: [] });
    expect(screen.queryByText(/Store credit/)).toBeNull();
  });
});
