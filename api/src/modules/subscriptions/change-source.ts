import type { DbOrTx } from '@nh/server/db/client';
import type { SubscriptionRow } from '@nh/server/db/schema';
import type { LockedPlan } from '@nh/server/queries/subscriptions/changes';

/**
 * A change the customer makes other than on My Subscriptions: through a one-click link from an email
 * (../email-actions). `check` judges the locked plan before the rule does (the link's delivery must still
 * be the plan's next: else it refuses, nothing written); `spend` spends the link in the change's
 * transaction (refusing when another request spent it first); the plan's history says "via email link".
 */
export interface ChangeSource {
  via: 'email-link';
  check: (row: SubscriptionRow) => void;
  spend: (tx: DbOrTx) => Promise<void>;
}

/** `decide` with the source's check first (none without a source). */
export const checkedBy =
  <A extends unknown[], R>(source: ChangeSource | undefined, decide: (plan: LockedPlan, ...rest: A) => R) =>
  (plan: LockedPlan, ...rest: A): R => {
    source?.check(plan.row);
    return decide(plan, ...rest);
  };
