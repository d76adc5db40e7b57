/**
 * Issue 25: My Subscriptions' next charge (`nextDeliveryAmount` of GET /api/subscriptions) is what the
 * renewal will charge: the plan's pre-tax price with today's tax for the plan's address (the API's
 * calculator; here an inline one of rates by state). docs/decisions/tax-and-shipping.md "Renewals".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineTaxTable } from '@nh/server/testing/tax-table';
import { startTestApi, type TestApi } from './support/harness';
import { insertPlan, PLAN_ADDRESS } from './support/plans';
import { signUpShopper, type Shopper } from './support/shopper';

const byState = inlineTaxTable();

let api: TestApi;
let me: Shopper;

beforeAll(async () => {
  api = await startTestApi({}, { services: { tax: byState } });
  me = await signUpShopper(api, 'next-charge-tax');
});
afterAll(() => api.close());

const nextCharge = async (id: string) => {
  const list = (await (await me.call('/api/subscriptions')).json()) as Array<{ id: string; amount: string; nextDeliveryAmount: string }>;
  return list.find((p) => p.id === id)!;
};

describe("the plan page's next charge", () => {
  it("is the plan's pre-tax price with today's tax for its address", async () => {
    // 2 × 12.50 less 15 %: 21.25 before tax; the plan's amount 22.95 with the flat 8 %.
    const plan = await insertPlan(api, me.id);
    byState.set(PLAN_ADDRESS.state, '0.07');
    expect(await nextCharge(plan.id)).toMatchObject({ amount: '22.95', nextDeliveryAmount: '22.74' });
    byState.set(PLAN_ADDRESS.state, '0.095');
    expect((await nextCharge(plan.id)).nextDeliveryAmount).toBe('23.27');
    // A plan moved to a state without sales tax.
    await api.ctx.db.$client.query(`update subscriptions set shipping_address = $2 where id = $1`, [plan.id, JSON.stringify({ ...PLAN_ADDRESS, state: 'OR', zip: '97201' })]);
    expect((await nextCharge(plan.id)).nextDeliveryAmount).toBe('21.25');
  });
});
