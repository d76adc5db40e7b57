import type { CartItem } from '@nh/shared/cart';
import { LIMITS, STORAGE_KEYS } from '@nh/shared/constants';
import { emptyCheckoutForm, type CheckoutForm } from '@nh/shared/contracts/checkout';
import type { PromoValidation } from '@nh/shared/contracts/promo';
import { SUBSCRIPTION_MESSAGES } from '@nh/shared/contracts/subscriptions';
import { centsToDecimal } from '@nh/shared/money';
import { priceCart, pricePlan } from '@nh/shared/pricing';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TokenizeError } from '@/components/card-entry/accept';
import { toast } from '@/components/ui/use-toast';
import { formatLongDate } from '@/lib/format-date';
import { createQueryClient } from '@/lib/query-client';
import { CartProvider } from '@/stores/cart-context';
import { usePlaceOrder, type PlaceOrderInput } from './use-place-order';

vi.mock('@/components/ui/use-toast', () => ({ toast: vi.fn() }));

const ORDER_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const items: CartItem[] = [
  { productId: 1, variantSku: 'SURFY-16', name: 'Surfy - 16 oz', price: 1000, quantity: 2, slug: 'surfy' },
  { productId: 2, variantSku: null, name: 'Glassy', price: 899, quantity: 1, slug: 'glassy' },
];
const lines = items.map((item) => ({ price: item.price, quantity: item.quantity }));
const promo: PromoValidation = { code: 'SAVE10', discountType: 'percentage', discountValue: 10 };
const values: CheckoutForm = {
  ...emptyCheckoutForm,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  address: '1 Main St',
  city: 'Springfield',
  state: 'CA',
  zip: '90210',
  cardNumber: '4111 1111 1111 1111',
  expirationDate: '12/30',
  cardCode: '123',
};
const opaque = { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'token-1' };

type Answer = { status: number; body?: unknown } | Error;

/** fetch answering each call from the queue in turn; every call is recorded with its body and headers. */
function stubFetch(queue: Answer[]) {
  const calls: { url: string; body: unknown; key: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ url, body: JSON.parse(String(init.body)), key: headers['Idempotency-Key'] });
      const answer = queue.shift() ?? { status: 500, body: { message: 'unexpected call' } };
      if (answer instanceof Error) throw answer;
      return new Response(JSON.stringify(answer.body ?? {}), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function setup(tokenize = vi.fn(async () => opaque)) {
  localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify(items));
  const hook: { current: ReturnType<typeof usePlaceOrder> | null } = { current: null };
  function Checkout() {
    hook.current = usePlaceOrder({ tokenize });
    return <p>checkout</p>;
  }
  const router = createMemoryRouter(
    [
      { path: '/checkout', Component: Checkout },
      { path: '/', element: <p>home</p> },
      { path: '/checkout/complete/:orderId', element: <p>confirmation</p> },
    ],
    { initialEntries: ['/checkout'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <CartProvider>
        <RouterProvider router={router} />
      </CartProvider>
    </QueryClientProvider>,
  );
  const submit = async (input: PlaceOrderInput) => {
    await act(async () => {
      await hook.current!.mutateAsync(input).catch(() => undefined);
    });
  };
  const savedCart = () => JSON.parse(localStorage.getItem(STORAGE_KEYS.cart) ?? 'null') as unknown;
  return { tokenize, router, submit, savedCart };
}

beforeEach(() => {
  localStorage.clear();
  vi.mocked(toast).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('usePlaceOrder', () => {
  it('store credit pays the whole order (issue 23): no card is tokenised or sent; the order opens as usual', async () => {
    const calls = stubFetch([{ status: 200, body: { orderId: ORDER_ID, creditApplied: '28.89', charged: '0.00' } }]);
    const { tokenize, router, submit } = setup();
    await submit({ values, items, promo: null, creditCovers: true });
    expect(tokenize).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/payments/checkout-nonce');
    expect(calls[0]!.body).not.toHaveProperty('dataValue');
    expect(calls[0]!.body).not.toHaveProperty('dataDescriptor');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/checkout/complete/${ORDER_ID}`));
  });

  it('Subscribe & Save: sends the first delivery total with the promo code, toasts the next delivery, clears the cart and opens the confirmation page with the plan', async () => {
    const nextBillingDate = '2031-07-05T15:00:00.000Z';
    const calls = stubFetch([{ status: 201, body: { subscriptionId: ORDER_ID, orderId: ORDER_ID, nextBillingDate } }]);
    const { tokenize, router, submit, savedCart } = setup();

    await submit({ values: { ...values, subscribeAndSave: true }, items, promo });

    expect(tokenize).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1);
    const firstDelivery = pricePlan(lines, promo).firstDelivery.total;
    expect(firstDelivery).not.toBe(priceCart(lines, { promo }).total);
    expect(calls[0]).toMatchObject({
      url: '/api/payments/subscribe-nonce',
      body: {
        amount: centsToDecimal(firstDelivery),
        promoCode: 'SAVE10',
        ...opaque,
        firstName: 'Ada',
        email: 'ada@example.com',
        interval: 'monthly',
        items: [
          { productId: 1, variantSku: 'SURFY-16', quantity: 2, price: '10.00' },
          { productId: 2, variantSku: null, quantity: 1, price: '8.99' },
        ],
        shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210' },
      },
    });
    expect(calls[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(toast).toHaveBeenLastCalledWith({
      title: SUBSCRIPTION_MESSAGES.created,
      description: `Your next delivery is scheduled for ${formatLongDate(new Date(nextBillingDate))}.`,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/checkout/complete/${ORDER_ID}`));
    expect(router.state.location.search).toBe(`?plan=${ORDER_ID}`);
    expect(savedCart()).toEqual([]);
  });

  it('Subscribe & Save every 2 months: sends the chosen intervalCount (every month by default)', async () => {
    const calls = stubFetch([
      { status: 201, body: { subscriptionId: ORDER_ID, orderId: ORDER_ID, nextBillingDate: '2031-07-05T15:00:00.000Z' } },
      { status: 201, body: { subscriptionId: ORDER_ID, orderId: ORDER_ID, nextBillingDate: '2031-07-05T15:00:00.000Z' } },
    ]);
    const { submit } = setup();
    await submit({ values: { ...values, subscribeAndSave: true, intervalCount: 2 }, items, promo: null });
    await submit({ values: { ...values, subscribeAndSave: true }, items, promo: null });
    expect(calls.map((c) => (c.body as { intervalCount?: number }).intervalCount)).toEqual([2, 1]);
  });

  it('Checkout: a request with no answer is re-sent as it was (same key, no new token); the answer places the order', async () => {
    const calls = stubFetch([new TypeError('Failed to fetch'), { status: 200, body: { orderId: ORDER_ID } }]);
    const { tokenize, router, submit, savedCart } = setup();

    await submit({ values, items, promo });
    expect(toast).toHaveBeenLastCalledWith({ title: 'Payment failed', description: 'Failed to fetch', variant: 'destructive' });
    expect(router.state.location.pathname).toBe('/checkout');
    expect(savedCart()).toEqual(items);

    await submit({ values, items, promo });
    expect(tokenize).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => call.url)).toEqual(['/api/payments/checkout-nonce', '/api/payments/checkout-nonce']);
    expect(calls[1]!.key).toBe(calls[0]!.key);
    expect(calls[1]!.body).toEqual(calls[0]!.body);
    const total = centsToDecimal(priceCart(lines, { promo }).total);
    expect(calls[0]!.body).toMatchObject({ amount: total, ...opaque, orderData: { total, promoCode: 'SAVE10', billingAddress: { zip: '90210' } } });

    expect(toast).toHaveBeenLastCalledWith({
      title: 'Order placed successfully!',
      description: `Your order number is ${ORDER_ID.slice(0, LIMITS.orderIdDisplayLength)}.`,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/checkout/complete/${ORDER_ID}`));
    expect(savedCart()).toEqual([]);
  });

  it('Checkout: any answer ends the attempt, so the next submit tokenises again under a new key', async () => {
    const declined = { message: 'Payment declined', responseMessage: 'This transaction has been declined.' };
    const calls = stubFetch([{ status: 402, body: declined }, { status: 402, body: declined }]);
    const { tokenize, router, submit } = setup();

    await submit({ values, items, promo: null });
    expect(toast).toHaveBeenLastCalledWith({ title: 'Payment failed', description: 'This transaction has been declined.', variant: 'destructive' });
    await submit({ values, items, promo: null });
    expect(tokenize).toHaveBeenCalledTimes(2);
    expect(calls[1]!.key).not.toBe(calls[0]!.key);
    expect(router.state.location.pathname).toBe('/checkout');
  });

  it("toasts the tokeniser's own message as a Payment Error and sends nothing", async () => {
    const calls = stubFetch([]);
    const { submit, savedCart } = setup(vi.fn(async () => Promise.reject(new TokenizeError('The credit card number is invalid.'))));

    await submit({ values, items, promo: null });
    expect(toast).toHaveBeenLastCalledWith({ title: 'Payment Error', description: 'The credit card number is invalid.', variant: 'destructive' });
    expect(calls).toHaveLength(0);
    expect(savedCart()).toEqual(items);
  });
});
