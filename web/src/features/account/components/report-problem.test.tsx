import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLAIM_PHOTO_MESSAGES } from '@nh/shared/contracts/claims';
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

describe('a photo with the report', () => {
  /** Uploads answered with a name, reports with their answer; the upload's body is the file itself. */
  function stubUploads() {
    const calls: Array<{ url: string; body: unknown; type: string | null }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const type = new Headers(init.headers).get('content-type');
        calls.push({ url, body: type === 'application/json' ? JSON.parse(String(init.body)) : init.body, type });
        const body = url.endsWith('/photos') ? { photo: 'a'.repeat(32) } : { id: 'c3', status: 'awaiting_review', statusLabel: 'Awaiting review', message: 'Thank you for telling us.' };
        return new Response(JSON.stringify(body), { status: 201, headers: { 'content-type': 'application/json' } });
      }),
    );
    // jsdom has no object URLs: the preview's address.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() });
    return calls;
  }

  it('uploads the chosen picture at once, shows it small, and names it in the report', async () => {
    const calls = stubUploads();
    show(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report a problem with this order' }));
    await user.type(screen.getByRole('spinbutton'), '1');
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'lid.jpg', { type: 'image/jpeg' });
    await user.upload(screen.getByLabelText('A photo of the problem (optional)'), photo);
    expect((await screen.findByAltText<HTMLImageElement>('The photo attached')).src).toBe('blob:photo');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    await screen.findByRole('status');
    expect(calls.map((c) => [c.url, c.type])).toEqual([
      [`/api/orders/${ORDER.id}/claims/photos`, 'image/jpeg'],
      [`/api/orders/${ORDER.id}/claims`, 'application/json'],
    ]);
    expect(calls[0]!.body).toBe(photo);
    expect(calls[1]!.body).toEqual({ lines: [{ line: 0, quantity: 1 }], reason: 'arrived_damaged', note: '', photo: 'a'.repeat(32) });
  });

  it('says what is wrong with a file that is no photo, or too large, and sends nothing', async () => {
    const calls = stubUploads();
    show(true);
    const user = userEvent.setup({ applyAccept: false });
    await user.click(screen.getByRole('button', { name: 'Report a problem with this order' }));
    const input = screen.getByLabelText('A photo of the problem (optional)');
    await user.upload(input, new File(['%PDF'], 'receipt.pdf', { type: 'application/pdf' }));
    expect(screen.getByRole('alert').textContent).toBe(CLAIM_PHOTO_MESSAGES.notAPhoto);
    const big = new File(['x'], 'huge.jpg', { type: 'image/jpeg' });
    Object.defineProperty(big, 'size', { value: 9 * 1024 * 1024 });
    await user.upload(input, big);
    expect(screen.getByRole('alert').textContent).toBe(CLAIM_PHOTO_MESSAGES.tooLarge);
    expect(calls).toEqual([]);
  });
});
