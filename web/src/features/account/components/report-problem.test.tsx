import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReportProblem } from './report-problem';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORDER = { id: '0f6d2b1c-1111-4222-8333-444455556666', status: 'delivered' as const, items: [{ productId: 1, productName: 'Flush Refill', quantity: 2, unitPrice: 2000, lineTotal: 4000 }] };

function stubFetch(replies: Array<{ status: number; body: unknown }>) {
  const calls: Array<{ url: string; body: unknown; key: string | null }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)), key: new Headers(init.headers).get('idempotency-key') });
      const reply = replies[Math.min(calls.length - 1, replies.length - 1)]!;
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

const show = (guest: boolean, order: Parameters<typeof ReportProblem>[0]['order'] = ORDER) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ReportProblem order={order} guest={guest} />
    </QueryClientProvider>,
  );

describe('Report a problem on the shopper’s order page', () => {
  it('sends the items, reason and note once per form (the same key after a refusal), and shows what happens next', async () => {
    const calls = stubFetch([
      { status: 422, body: { code: 'CLAIM_OVER_CLAIMED', message: 'At most 1 of "Flush Refill" can still be claimed on this order.' } },
      { status: 201, body: { id: 'c1', status: 'awaiting_review', statusLabel: 'Awaiting review', message: 'Thank you for telling us. Our team will look at your report within one working day and email you.' } },
    ]);
    show(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report a problem with this order' }));
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one item that had a problem.');
    const quantity = screen.getByRole('spinbutton');
    await user.clear(quantity);
    await user.type(quantity, '2');
    await user.selectOptions(screen.getByLabelText('What happened?'), 'leaking');
    await user.type(screen.getByLabelText('Tell us more (optional)'), 'Cap split');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('At most 1 of "Flush Refill" can still be claimed on this order.')).toBeTruthy();
    await user.clear(quantity);
    await user.type(quantity, '1');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect((await screen.findByRole('status')).textContent).toContain('Our team will look at your report');
    expect(calls.map((c) => c.url)).toEqual([`/api/orders/${ORDER.id}/claims`, `/api/orders/${ORDER.id}/claims`]);
    expect(calls.map((c) => c.body)).toEqual([
      { lines: [{ line: 0, quantity: 2 }], reason: 'leaking', note: 'Cap split' },
      { lines: [{ line: 0, quantity: 1 }], reason: 'leaking', note: 'Cap split' },
    ]);
    expect(calls[0]!.key).toBeTruthy();
    expect(calls[1]!.key).toBe(calls[0]!.key);
  });

  it('a guest reports through the guest address; nothing is offered on a cancelled order', async () => {
    const calls = stubFetch([{ status: 201, body: { id: 'c2', status: 'resolved', statusLabel: 'Resolved', message: 'We are sending you a free replacement.' } }]);
    show(true);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report a problem with this order' }));
    await user.type(screen.getByRole('spinbutton'), '1');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toEqual([`/api/orders/guest/${ORDER.id}/claims`]));
    expect((await screen.findByRole('status')).textContent).toBe('We are sending you a free replacement.');
    cleanup();
    show(false, { ...ORDER, status: 'cancelled' });
    expect(screen.queryByRole('button', { name: 'Report a problem with this order' })).toBeNull();
  });
});
