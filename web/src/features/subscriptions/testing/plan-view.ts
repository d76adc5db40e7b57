/** A shopper's plan as GET /api/subscriptions answers it, for the My Subscriptions component tests. */
import type { SubscriptionView } from '@nh/shared/contracts/subscriptions';

export const PLAN_ID = '11111111-1111-4111-8111-111111111111';

/** An active monthly plan of 2 × Surfy Surface Cleaner at $36.72, on a Visa ending in 1111; a test names what it changes. */
export const planView = (overrides: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: PLAN_ID,
  status: 'active',
  createdAt: '2025-03-10T15:00:00.000Z',
  items: [{ productId: 7, productName: 'Surfy Surface Cleaner', variantSku: null, quantity: 2, price: '20.00' }],
  amount: '36.72',
  discountPercent: 15,
  interval: 'monthly',
  intervalCount: 1,
  nextBillingDate: '2025-04-10T15:00:00.000Z',
  cancelledAt: null,
  cardType: 'Visa',
  cardLastFour: '1111',
  skippedPeriods: [],
  rescheduleWindow: null,
  resumableOnSavedCard: false,
  chargeBeingChecked: false,
  shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
  resumesOn: null,
  paymentRetrying: false,
  pausedBy: null,
  cadenceSuggestion: null,
  oneTimeItems: [],
  shipNow: null,
  nextDeliveryAmount: '36.72',
  ...overrides,
});
