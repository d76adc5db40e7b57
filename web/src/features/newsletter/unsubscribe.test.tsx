import { SHOP } from '@nh/shared/constants';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute, stubFetch } from '@/testing/render-route';
import UnsubscribeRoute from './routes/unsubscribe';

const TOKEN = '3f1c1a52-8a4e-4a7a-9c55-0d7f6a3c2b10';
const URL_OF_TOKEN = `/api/newsletter/unsubscribe/${TOKEN}`;
const open = () => renderRoute('/unsubscribe/:token', `/unsubscribe/${TOKEN}`, UnsubscribeRoute);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('unsubscribe page', () => {
  it('unsubscribes with one button and says so, offering the sign-up form again', async () => {
    stubFetch({ [URL_OF_TOKEN]: { status: 200, body: { email: 'r***@example.com', subscribed: true } } });
    open();
    expect(await screen.findByRole('heading', { name: `Unsubscribe from the ${SHOP.name} newsletter` })).toBeTruthy();
    expect(screen.getByText('r***@example.com')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();

    const fetchMock = stubFetch({ [URL_OF_TOKEN]: { status: 200, body: { email: 'r***@example.com', subscribed: false } } });
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: 'You have been unsubscribed' })).toBeTruthy();
    expect(screen.getByText(/We will send no more newsletter emails to/).textContent).toContain('r***@example.com');
    expect(screen.getByText(/Emails about your orders and your Subscribe & Save plan will still reach you/)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe(URL_OF_TOKEN);
    expect((fetchMock.mock.calls[0] as unknown[])[1]).toMatchObject({ method: 'POST', body: undefined });
    // Re-subscribing is the normal newsletter form.
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeTruthy();
  });

  it('shows an address already off the list as unsubscribed, with no button to press', async () => {
    stubFetch({ [URL_OF_TOKEN]: { status: 200, body: { email: 'r***@example.com', subscribed: false } } });
    open();
    expect(await screen.findByRole('heading', { name: 'You have been unsubscribed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });

  it('says when the link is unknown', async () => {
    stubFetch({ [URL_OF_TOKEN]: { status: 404, body: { message: 'We could not find this unsubscribe link.' } } });
    open();
    expect(await screen.findByRole('heading', { name: 'We could not find this link' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });

  it('keeps the button and says so when unsubscribing fails', async () => {
    stubFetch({ [URL_OF_TOKEN]: { status: 200, body: { email: 'r***@example.com', subscribed: true } } });
    open();
    const button = await screen.findByRole('button', { name: 'Unsubscribe' });
    stubFetch({ [URL_OF_TOKEN]: { status: 503, body: { message: 'Service unavailable' } } });
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('We could not unsubscribe you just now. Please try again.'));
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeTruthy();
  });
});
