/** Orders, payments and staff for the orders screens' component tests. */
import { adminOrderSchema, adminOrderSummarySchema, type AdminOrder, type AdminOrderSummary } from '@nh/shared/contracts/admin';
import type { AdminPayment } from '@nh/shared/contracts/refunds';
import type { StaffMe, StaffRole } from '@nh/shared/contracts/staff';
import type { z } from 'zod';

export const staffAs = (role: StaffRole): StaffMe => ({ id: `s-${role}`, email: `${role}@example.com`, name: `Test ${role}`, role });

/** Every field of the contract that may be null, as null: a fixture names what it sets, and a new nullable field needs no line here. */
const nullsOf = <S extends z.ZodObject>(schema: S) =>
  Object.fromEntries(Object.keys(schema.shape).filter((field) => schema.shape[field]!.safeParse(null).success).map((field) => [field, null])) as {
    [K in keyof z.infer<S> as null extends z.infer<S>[K] ? K : never]: null;
  };

export const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

export const summary = (overrides: Partial<AdminOrderSummary> = {}): AdminOrderSummary => ({
  ...nullsOf(adminOrderSummarySchema),
  paymentState: 'paid',
  refunded: '0.00',
  id: ORDER_ID,
  customerName: 'Edsger Dijkstra',
  customerEmail: 'edsger@example.com',
  total: '53.19',
  status: 'pending',
  createdAt: '2025-03-01T15:04:00.000Z',
  netsuiteSyncStatus: 'synced',
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
  ...nullsOf(adminOrderSchema),
  ...summary(),
  shippingMethod: 'standard',
  storeCode: 'NH',
  shippingAddress: { address: '5 Loop Ln', city: 'Austin', state: 'TX', zip: '78701' },
  items: [{ productId: 1, productName: 'Surfy Cleaner', quantity: 2, price: '20.00', sku: null, variantSku: null }],
  subtotal: '40.00',
  discount: '0.00',
  subscribeDiscount: '0.00',
  promoDiscount: '0.00',
  shipping: '9.99',
  tax: '3.20',
  creditApplied: '0.00',
  paymentTransactionId: 'txn-1',
  subscriptionSkippedPeriods: [],
  updatedAt: '2025-03-01T15:04:02.000Z',
  payments: [charge()],
  refundable: '53.19',
  ...overrides,
});
