import { emptyCheckoutForm, type CheckoutForm } from '@nh/shared/contracts/checkout';
import type { AuthUser } from '@nh/shared/contracts/auth';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { stubFetch } from '@/testing/render-route';
import { CHECKOUT_DRAFT_KEY, readDraft, toDraft, useCheckoutDraft } from './checkout-draft';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Form({ user }: { user: AuthUser | null }) {
  const form = useForm<CheckoutForm>({ defaultValues: emptyCheckoutForm });
  useCheckoutDraft(form, user);
  return (
    <form>
      {(['firstName', 'lastName', 'email', 'address', 'city', 'state', 'zip', 'cardNumber', 'cardCode'] as const).map((name) => (
        <label key={name}>
          {name}
          <input {...form.register(name)} />
        </label>
      ))}
    </form>
  );
}

const valueOf = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;

const show = (user: AuthUser | null = null) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Form user={user} />
    </QueryClientProvider>,
  );

describe("the checkout form's draft", () => {
  it('keeps what was typed across a reload, but never a card field', async () => {
    stubFetch({});
    show();
    const typist = userEvent.setup();
    await typist.type(screen.getByLabelText('firstName'), 'Ada');
    await typist.type(screen.getByLabelText('address'), '1 Main St');
    await typist.type(screen.getByLabelText('cardNumber'), '4111111111111111');
    await typist.type(screen.getByLabelText('cardCode'), '123');
    const stored = sessionStorage.getItem(CHECKOUT_DRAFT_KEY)!;
    expect(stored).not.toContain('4111');
    expect(stored).not.toContain('cardCode');
    expect(readDraft()).toMatchObject({ firstName: 'Ada', address: '1 Main St' });

    cleanup();
    show();
    await waitFor(() => expect(valueOf('firstName')).toBe('Ada'));
    expect(valueOf('address')).toBe('1 Main St');
    expect(valueOf('cardNumber')).toBe('');
  });

  it("fills a signed-in shopper's name, email and newest order's address into empty fields, never over a typed one", async () => {
    sessionStorage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify({ firstName: 'Typed' }));
    const order = {
      id: 'o1',
      number: 'o1',
      status: 'processing',
      placedAt: '2026-03-01T15:04:00.000Z',
      itemCount: 1,
      total: 100,
      customerName: 'Sam Shopper',
      shippingAddress: { address: '9 Elm St', city: 'Dayton', state: 'OH', zip: '45402' },
      items: [],
      subtotal: 100,
      discount: 0,
      subscribeDiscount: 0,
      promoDiscount: 0,
      shipping: 0,
      tax: 0,
      promoCode: null,
      carrier: null,
      trackingNumber: null,
      trackingUrl: null,
      deliveredAt: null,
    };
    stubFetch({
      '/api/orders': { status: 200, body: { orders: [{ id: 'o1', number: 'o1', status: 'processing', placedAt: order.placedAt, itemCount: 1, total: 100 }] } },
      '/api/orders/o1': { status: 200, body: order },
    });
    show({ id: 'u1', email: 'sam@example.com', firstName: 'Sam', lastName: 'Shopper', profileImageUrl: null });
    await waitFor(() => expect(valueOf('zip')).toBe('45402'));
    expect(valueOf('firstName')).toBe('Typed');
    expect(valueOf('lastName')).toBe('Shopper');
    expect(valueOf('email')).toBe('sam@example.com');
    expect(valueOf('address')).toBe('9 Elm St');
  });

  it('a draft holds only the contact, address and plan choices', () => {
    expect(toDraft({ ...emptyCheckoutForm, firstName: 'A', cardNumber: '4111', expirationDate: '12/30', cardCode: '123' })).toEqual({
      firstName: 'A',
      lastName: '',
      email: '',
      address: '',
      city: '',
      state: '',
      zip: '',
      subscribeAndSave: false,
      intervalCount: 1,
    });
  });
});
