import type { TestApi } from './harness';

const DAY_MS = 86_400_000;

/** yyyy-mm-dd (UTC) `offset` days from today. */
export const dayOf = (offset: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10);

/** Where insertPlan's plans ship. */
export const PLAN_ADDRESS = { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '12345' };

export interface PlanOptions {
  status?: string;
  /** Days from today (UTC) of the next billing date, at 14:00. */
  dueInDays?: number;
  failedAttempts?: number;
  intervalCount?: number;
  items?: Array<{ productId: number; productName: string; quantity: number; price: string }>;
  amount?: string;
  /** The saved card's customer and payment profile ids; null: no card on file. */
  profiles?: { customer: string; payment: string } | null;
  cardExpiresOn?: string | null;
}

/**
 * A plan of `userId` as a row of our own: active, 2 × Test Cleaner at $12.50 for $22.95 a month, billed at
 * 14:00 UTC 10 days ahead, shipping to PLAN_ADDRESS, on a saved card; `o` changes what a test needs.
 */
export async function insertPlan(api: TestApi, userId: string, o: PlanOptions = {}): Promise<{ id: string; nextBillingDate: Date }> {
  const items = (o.items ?? [{ productId: 1, productName: 'Test Cleaner', quantity: 2, price: '12.50' }]).map((i) => ({ ...i, variantSku: null, sku: null, itemNumber: null }));
  const profiles = o.profiles === undefined ? { customer: '9001', payment: '9002' } : o.profiles;
  const {
    rows: [row],
  } = await api.ctx.db.$client.query<{ id: string; next_billing_date: Date }>(
    `insert into subscriptions (user_id, customer_email, customer_name, items, amount, interval_count, next_billing_date, status, failed_attempts, shipping_address,
       authnet_customer_profile_id, authnet_payment_profile_id, card_expires_on)
     values ($1, 'plan@example.com', 'Ada Lovelace', $2, $3, $4, date_trunc('day', now(), 'UTC') + make_interval(days => $5) + interval '14 hours', $6, $7, $8, $9, $10, $11)
     returning id, next_billing_date`,
    [
      userId,
      JSON.stringify(items),
      o.amount ?? '22.95',
      o.intervalCount ?? 1,
      o.dueInDays ?? 10,
      o.status ?? 'active',
      o.failedAttempts ?? 0,
      JSON.stringify(PLAN_ADDRESS),
      profiles?.customer ?? null,
      profiles?.payment ?? null,
      o.cardExpiresOn ?? null,
    ],
  );
  return { id: row!.id, nextBillingDate: row!.next_billing_date };
}
