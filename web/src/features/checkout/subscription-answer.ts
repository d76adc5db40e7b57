import { nextBillingDate, subscribeNonceResponseSchema } from '@nh/shared/contracts/subscriptions';

/**
 * The next delivery date to show after subscribing: the server's nextBillingDate (the date it will
 * actually charge). The charge has already succeeded when this runs, so an answer without a usable
 * date never fails the checkout; it falls back to the contract's "one month from today".
 */
export function nextDeliveryFromAnswer(answer: unknown, now: Date = new Date()): Date {
  const parsed = subscribeNonceResponseSchema.safeParse(answer);
  if (parsed.success) {
    const date = new Date(parsed.data.nextBillingDate);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return nextBillingDate(now);
}
