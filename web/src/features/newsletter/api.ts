import type { NewsletterResponse } from '@nh/shared/contracts/newsletter';
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/query-client';

export async function subscribeToNewsletter(email: string): Promise<NewsletterResponse> {
  const res = await apiRequest('POST', '/api/newsletter', { email: email.trim() });
  return (await res.json()) as NewsletterResponse;
}

export const useNewsletterSignup = () => useMutation({ mutationFn: subscribeToNewsletter });

/** The server's `{ message }` when it sent one, else the error's own message. */
export function errorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  return error instanceof Error ? error.message : undefined;
}
