/** Plans as the staff subscription screens read them, for their component tests. */
import type { AdminSubscriptionDetail, AdminSubscriptionSummary } from '@nh/shared/contracts/admin-subscriptions';

export const PLAN_ID = '0f6d2b1c-9a7e-4c1d-8b2a-5e6f7a8b9c0d';

/** Ada Saver's active monthly plan of 2 × Surfy Cleaner at $36.72, as the plan table lists it; a test names what it changes. */
export const planSummary = (overrides: Partial<AdminSubscriptionSummary> = {}): AdminSubscriptionSummary => ({
  id: PLAN_ID,
  customerName: 'Ada Saver',
  customerEmail: 'ada@example.com',
  status: 'active',
  items: [{ productId: 1, productName: 'Surfy Cleaner', variantSku: null, quantity: 2, price: '20.00' }],
  amount: '36.72',
  interval: 'monthly',
  intervalCount: 1,
  nextBillingDate: '2025-04-10T14:30:00.000Z',
  failedAttempts: 0,
  retryAt: null,
  createdAt: '2025-01-10T14:30:00.000Z',
  cancelledAt: null,
  ...overrides,
});

/** The same plan on its page: a Visa ending in 4242 on file, every action open, no history, orders or add-ons. */
export const planDetail = (overrides: Partial<AdminSubscriptionDetail> = {}): AdminSubscriptionDetail => ({
  ...planSummary(),
  userId: null,
  discountPercent: 15,
  shippingAddress: { address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
  cardType: 'Visa',
  cardLastFour: '4242',
  hasStoredCard: true,
  cardExpiresOn: null,
  pauseCause: null,
  pausedBy: null,
  resumesOn: null,
  actions: { pause: true, resume: false, skip: true, reschedule: true, frequency: true, cancel: true, items: true, address: true, cardLink: true },
  chargeBeingChecked: false,
  rescheduleWindow: null,
  history: [],
  orders: [],
  customerChanges: [],
  oneTimeItems: [],
  addOnActions: { shipNow: true, oneTimeItems: true },
  consent: null,
  priceNotices: [],
  ...overrides,
});
