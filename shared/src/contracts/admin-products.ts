/**
 * The back office's product list (search, status, paging) and inventory adjustments with a reason
 * (POST/GET /api/admin/products/{id}/inventory). Product fields themselves are in admin.ts.
 */
import { z } from 'zod';
import { PRODUCT_STATUSES } from './catalog';
import { textField } from './fields';

export const ADMIN_PRODUCT_MESSAGES = {
  deltaFormat: 'Change must be a whole number other than 0 (negative takes stock away)',
  reasonRequired: 'Please say why the stock changes (e.g. "Counted in the warehouse", "Damaged in transit")',
  reasonTooLong: 'Reason must be at most 200 characters',
  belowZero: 'Stock cannot go below 0',
  searchTooLong: 'Search must be at most 200 characters',
  statusFormat: 'Status must be active, inactive or out of stock',
  pageLimit: 'Limit must be a whole number from 1 to 200',
  pageOffset: 'Offset must be a whole number of at least 0',
  adjusted: 'Inventory updated',
  /** The reason logged when the product form sets the inventory directly. */
  formReason: 'Set in the product form',
} as const;

export const INVENTORY_REASON_MAX_LENGTH = 200;

/** Body of POST /api/admin/products (all optional: without them, every product, as the spec's list). */
export const adminProductsRequestSchema = z.object({
  search: textField({ max: 200, tooLong: ADMIN_PRODUCT_MESSAGES.searchTooLong }).optional(),
  status: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.enum(PRODUCT_STATUSES, { error: ADMIN_PRODUCT_MESSAGES.statusFormat }).optional()),
  limit: z.number({ error: ADMIN_PRODUCT_MESSAGES.pageLimit }).int(ADMIN_PRODUCT_MESSAGES.pageLimit).min(1, ADMIN_PRODUCT_MESSAGES.pageLimit).max(200, ADMIN_PRODUCT_MESSAGES.pageLimit).optional(),
  offset: z.number({ error: ADMIN_PRODUCT_MESSAGES.pageOffset }).int(ADMIN_PRODUCT_MESSAGES.pageOffset).min(0, ADMIN_PRODUCT_MESSAGES.pageOffset).default(0),
});
export type AdminProductsRequest = z.input<typeof adminProductsRequestSchema>;

export const inventoryAdjustmentRequestSchema = z.object({
  delta: z
    .number({ error: ADMIN_PRODUCT_MESSAGES.deltaFormat })
    .int(ADMIN_PRODUCT_MESSAGES.deltaFormat)
    .min(-2_000_000_000, ADMIN_PRODUCT_MESSAGES.deltaFormat)
    .max(2_000_000_000, ADMIN_PRODUCT_MESSAGES.deltaFormat)
    .refine((n) => n !== 0, ADMIN_PRODUCT_MESSAGES.deltaFormat),
  reason: textField({ max: INVENTORY_REASON_MAX_LENGTH, required: ADMIN_PRODUCT_MESSAGES.reasonRequired, tooLong: ADMIN_PRODUCT_MESSAGES.reasonTooLong }).min(1, ADMIN_PRODUCT_MESSAGES.reasonRequired),
});
export type InventoryAdjustmentRequest = z.infer<typeof inventoryAdjustmentRequestSchema>;

export const inventoryAdjustmentSchema = z.object({
  id: z.number(),
  delta: z.number(),
  inventoryAfter: z.number(),
  reason: z.string(),
  staffEmail: z.string(),
  at: z.string(),
});
export type InventoryAdjustment = z.infer<typeof inventoryAdjustmentSchema>;
export const inventoryLogSchema = z.object({ productId: z.number(), inventory: z.number(), adjustments: z.array(inventoryAdjustmentSchema) });
export type InventoryLog = z.infer<typeof inventoryLogSchema>;
