import { STORAGE_KEYS } from '@nh/shared/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { CartProvider } from '@/stores/cart-context';
import { NewsletterPopup, type NewsletterPopupProps } from './newsletter-popup';

const TITLE = 'Wait! Take 15% off your first order';

function renderPopup(path = '/', props: NewsletterPopupProps = {}) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <CartProvider>
          <NewsletterPopup {...props} />
        </CartProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The pointer leaves the window through the top edge. */
const exitIntent = () =>
  act(() => void document.documentElement.dispatchEvent(new MouseEvent('mouseleave', { clientY: 0, bubbles: false })));

// The dialog is its own chunk, which the page loads when idle; loaded here once, before the clock of findBy starts.
beforeAll(() => import('./newsletter-dialog'), 30_000);
beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('newsletter popup', () => {
  it('opens on exit intent, once; closing records dismissed and it never opens again', async () => {
    const first = renderPopup();
    exitIntent();
    expect(await screen.findByText(TITLE)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'No thanks' }));
    await waitFor(() => expect(screen.queryByText(TITLE)).toBeNull());
    expect(localStorage.getItem(STORAGE_KEYS.emailPopupDismissed)).toBe('dismissed');
    exitIntent();
    expect(screen.queryByText(TITLE)).toBeNull();
    first.unmount();

    renderPopup();
    exitIntent();
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('ignores a pointer leaving through the sides or bottom', () => {
    renderPopup();
    act(() => void document.documentElement.dispatchEvent(new MouseEvent('mouseleave', { clientY: 300 })));
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('never opens on /checkout (nor on the staff screens)', () => {
    for (const path of ['/checkout', '/admin-orders']) {
      renderPopup(path);
      exitIntent();
      expect(screen.queryByText(TITLE)).toBeNull();
      cleanup();
    }
  });

  it('never opens while the cart has items', () => {
    localStorage.setItem(
      STORAGE_KEYS.cart,
      JSON.stringify([{ productId: 1, variantSku: null, name: 'Glassy', price: 899, quantity: 1, slug: 'glassy' }]),
    );
    renderPopup();
    exitIntent();
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('never opens for a visitor who already subscribed', () => {
    localStorage.setItem(STORAGE_KEYS.emailPopupDismissed, 'subscribed');
    renderPopup();
    exitIntent();
    expect(screen.queryByText(TITLE)).toBeNull();
  });

  it('supports a timed trigger', async () => {
    renderPopup('/', { trigger: 'timed', delayMs: 20 });
    expect(screen.queryByText(TITLE)).toBeNull();
    expect(await screen.findByText(TITLE)).toBeTruthy();
  });

  it('ignores submitting an empty address', async () => {
    renderPopup();
    exitIntent();
    await userEvent.click(await screen.findByRole('button', { name: 'Get My 15% Off' }));
    expect(screen.getByText(TITLE)).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.emailPopupDismissed)).toBeNull();
  });
});
