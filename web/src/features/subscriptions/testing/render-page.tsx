/** My Subscriptions rendered over a stubbed fetch, for its component tests. */
import type { PaymentsStatus } from '@nh/shared/contracts/checkout';
import { Toaster } from '@/components/ui/toaster';
import { renderRoute, stubFetch, type FakeAnswer } from '@/testing/render-route';
import SubscriptionsPage from '../routes/subscriptions';

/** GET /api/auth/user for a signed-in shopper. */
export const SHOPPER: FakeAnswer = { status: 200, body: { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', profileImageUrl: null } };

export const SANDBOX_STATUS: PaymentsStatus = {
  configured: true,
  environment: 'sandbox',
  publicClientKey: 'client-key',
  apiLoginID: 'login-id',
  acceptJsUrl: '/api/payments/sandbox/accept.js',
  localSandbox: true,
};

/**
 * The page and its toasts, fetch answering from `answers`: the same object, so a test may change an
 * answer (the refreshed list) after rendering. Returns the fetch mock.
 */
export function renderMySubscriptions(answers: Record<string, FakeAnswer>) {
  const fetchMock = stubFetch(answers);
  renderRoute('/subscriptions', '/subscriptions', () => (
    <>
      <SubscriptionsPage />
      <Toaster />
    </>
  ));
  return fetchMock;
}

/** The same for a signed-in shopper with payments in the sandbox, unless `answers` says otherwise. */
export function renderSignedIn(answers: Record<string, FakeAnswer>) {
  answers['/api/auth/user'] ??= SHOPPER;
  answers['/api/payments/status'] ??= { status: 200, body: SANDBOX_STATUS };
  return renderMySubscriptions(answers);
}

/** The calls made to `url`, with their options. */
export const callsTo = (fetchMock: ReturnType<typeof stubFetch>, url: string) => fetchMock.mock.calls.filter(([u]) => u === url) as unknown as [string, RequestInit][];
