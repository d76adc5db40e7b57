/**
 * The link an email gives to cancel a plan (consent on record, issue 22: the price-change notice). One
 * function, so the one-click email actions (a single-use `cancel` token, another part of issue 22) can
 * take its place in one spot; for now it is the shopper's My Subscriptions page, where the plan's Cancel
 * button is (signed in by emailed code or password).
 */
import type { Db } from '@nh/server/db/client';
import { mySubscriptionsUrl } from './layout';

export async function cancelLinkFor(_db: Db, _subscriptionId: string): Promise<string> {
  return mySubscriptionsUrl();
}
