/** Orders, payments and staff for the orders screens' component tests. */
import type { AdminOrder, AdminOrderSummary } from '@nh/shared/contracts/admin';
import type { AdminPayment } from '@nh/shared/contracts/refunds';
import type { StaffMe, StaffRole } from '@nh/shared/contracts/staff';

export const staffAs = (role: StaffRole): StaffMe => ({ id: `s-${role}`, email: `${role}@example.com`, name: `Test ${role}`, role });

export const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

export const summary = (overrides: Partial<AdminOrderSummary> = {}): AdminOrderSummary => ({
  id: ORDER_ID,
  customerName: 'Edsger Dijkstra',
  customerEmail: 'edsger@example.com',
  total: '53.19',
  status: 'pending',
  createdAt: '2025-03-01T15:04:00.000Z',
  trackingNumber: null,
  carrier: null,
  netsuiteSyncStatus: 'synced',
  promoCode: null,
  ...overrides,
});

export const charge = (overrides: Partial<AdminPayment> = {}): AdminPayment => ({
  id: 'p-charge',
  kind: 'charge',
  status: 'approved',
  amount: '53.19',
  cardType: 'Visa',
  lastFour: '1111',
  transactionId: 'txn-1',
  message: 'This transaction has been approved.',
  parentId: null,
  reason: null,
  staffEmail: null,
  restocked: false,
  createdAt: '2025-03-01T15:04:01.000Z',
  ...overrides,
});

export const order = (overrides: Partial<AdminOrder> = {}): AdminOrder => ({
  ...summary(),
  storeCode: 'NH',
  customerPhone: null,
  shippingAddress: { address: '5 Loop Ln', city: 'Austin', state: 'TX', zip: '78701' },
  billingAddress: null,
  items: [{ productId: 1, productName: 'Surfy Cleaner', quantity: 2, price: '20.00', sku: null, variantSku: null }],
  subtotal: '40.00',
  discount: '0.00',
  subscribeDiscount: '0.00',
  promoDiscount: '0.00',
  shipping: '9.99',
  tax: '3.20',
  customerNotes: null,
  paymentTransactionId: 'txn-1',
  subscriptionId: null,
  subscriptionSkippedPeriods: [],
  deliveredDate: null,
  updatedAt: '2025-03-01T15:04:02.000Z',
  netsuiteSyncError: null,
  payments: [charge()],
  refundable: '53.19',
  shippingBlockedReason: null,
  ...overrides,
});
