/**
 * Fix an unshipped order (issue 23): staff change the shipping address of an order that has not shipped
 * (`PUT /api/admin/orders/{id}/address`). The checkout's address rules; audited with the person and the
 * before and after; the customer gets the order confirmation again with a "corrected address" note; the
 * NetSuite sales order is sent again with it (docs/decisions/admin.md, "Fix an unshipped order").
 */
import { z } from 'zod';
import { adminOrderRequestSchema, type OrderStatus } from './admin';
import { addressSchema } from './checkout';
import { textField } from './fields';

export const ORDER_ADDRESS_REASON_MAX_LENGTH = 500;

export const ORDER_ADDRESS_MESSAGES = {
  changed: 'Shipping address changed. The customer is emailed a corrected confirmation, and NetSuite is updated.',
  unchanged: 'That is already the shipping address of this order.',
  shipped: 'This order has already shipped, so its address can no longer be changed. Contact the carrier to redirect the parcel.',
  cancelled: 'This order is cancelled, so its address cannot be changed.',
  reasonTooLong: `Please keep the reason to ${ORDER_ADDRESS_REASON_MAX_LENGTH} characters.`,
} as const;

/** PUT /api/admin/orders/{id}/address: the checkout's address fields, the store, and why (optional; audit trail only). */
export const changeOrderAddressSchema = addressSchema.extend({
  storeCode: adminOrderRequestSchema.shape.storeCode,
  reason: textField({ max: ORDER_ADDRESS_REASON_MAX_LENGTH, tooLong: ORDER_ADDRESS_MESSAGES.reasonTooLong, multiline: true }).optional(),
});
export type ChangeOrderAddressInput = z.input<typeof changeOrderAddressSchema>;
export type ChangeOrderAddressRequest = z.infer<typeof changeOrderAddressSchema>;

/** Why the address of an order in `status` may no longer change (shipped, delivered, cancelled), or null while it may. The server's rule; the page hides the action by it. */
export function orderAddressLockedReason(status: OrderStatus): string | null {
  if (status === 'shipped' || status === 'delivered') return ORDER_ADDRESS_MESSAGES.shipped;
  if (status === 'cancelled') return ORDER_ADDRESS_MESSAGES.cancelled;
  return null;
}
