/**
 * Admin API contracts (promo codes, products, orders). Every admin call is made with a staff session
 * (the httpOnly cookie of POST /api/admin/session, contracts/staff.ts): no credential travels in a
 * body. Order calls also carry the store code.
 */
// The function's own module: the package index loads all ~300 of date-fns' modules (~7 MB in a worker; issue 26).
import { format } from 'date-fns/format';
import { z } from 'zod';
import { shippingMethodFieldSchema, taxSourceSchema } from './order-delivery';
import { CARRIERS, EXPORT_FILE_DATE_FORMAT, exportFileName, LIMITS, ORDER_DATE_FORMAT, STORE_CODE, STORE_CODE_MAX_LENGTH } from '../constants';
import { centsToDecimal, toCents } from '../money';
import { DISCOUNT_TYPES } from '../pricing';
import { PRODUCT_STATUSES } from './catalog';
import { adminPaymentSchema } from './refunds';
import { SYNC_STATUSES } from './admin-sync';
import { skippedPeriodSchema } from './subscriptions';
import { idField, textField } from './fields';

/** Server answers (`message` of a 4xx) and the admin screens' toasts, exactly as the spec quotes them. */
export const ADMIN_MESSAGES = {
  invalidPassword: 'Invalid password',
  tooManyAttempts: 'Too many wrong admin passwords. Try again in 15 minutes.',
  passwordRequired: 'Please enter the admin password',
  storeCode: 'Please enter a valid store code.',
  promoExists: 'A promo code with this code already exists',
  promoNotFound: 'Promo code not found',
  promoCodeRequired: 'Please enter a promo code',
  promoCodeTooLong: `Promo code must be at most ${LIMITS.promoCodeMaxLength} characters`,
  discountType: 'Discount type must be percentage or fixed',
  discountValueRequired: 'Please enter a discount value',
  discountValueInteger: 'Discount value must be a whole number',
  percentageRange: 'A percentage discount must be between 1 and 100',
  fixedRange: 'A fixed discount must be at least 1 dollar',
  fixedTooLarge: 'A fixed discount must be at most 10000 dollars',
  productNotFound: 'Product not found',
  productIdInvalid: 'Product id must be a positive whole number',
  nameRequired: 'Product name is required',
  slugRequired: 'Slug is required',
  slugFormat: 'Slug must be lowercase letters, numbers and hyphens (e.g. "surfy-all-purpose-cleaner")',
  slugTaken: 'A product with this slug already exists',
  priceRequired: 'Price is required',
  priceFormat: 'Price must be an amount of at least 0.00 with at most 2 decimals',
  compareAtPriceFormat: 'Compare-at price must be an amount of at least 0.00 with at most 2 decimals',
  categoryRequired: 'Category is required',
  categoryMissing: 'The chosen category does not exist',
  inventoryFormat: 'Inventory must be a whole number of at least 0',
  weightFormat: 'Weight must be an amount of ounces of at least 0.00 with at most 2 decimals',
  caseCountFormat: 'Case count must be a whole number of at least 0',
  taxCodeFormat: 'Tax code must be 1 to 25 letters, digits, dots or hyphens (e.g. 31000), or empty for general merchandise',
  statusFormat: 'Status must be active, inactive or out of stock',
  imageName: 'Images must be file names such as "surfy.svg"',
  kitContentMissing: 'Kit contents must be slugs of existing products',
  kitContainsItself: 'A kit cannot contain itself',
  productInKit: 'This product is part of a starter kit. Remove it from the kit first.',
  orderNotFound: 'Order not found',
  orderStatus: 'Status must be pending, processing, shipped, delivered or cancelled',
  carrier: `Carrier must be empty or one of ${CARRIERS.join(', ')}`,
  trackingTooLong: 'Tracking number must be at most 100 characters',
  searchTooLong: 'Search must be at most 200 characters',
  pageLimit: 'Limit must be a whole number from 1 to 100',
  pageOffset: 'Offset must be a whole number of at least 0',
  // Toasts of the admin screens
  accessGranted: 'Access granted',
  promoCreated: 'Promo code created',
  productCreated: 'Product created successfully',
  productUpdated: 'Product updated successfully',
  productDeleted: 'Product deleted successfully',
  productCreateFailed: 'Failed to create product',
  productUpdateFailed: 'Failed to update product',
  productDeleteFailed: 'Failed to delete product',
  exportSucceeded: 'Orders exported successfully',
  exportFailed: 'Export failed',
  orderUpdated: 'Order updated successfully',
  orderUpdateFailed: 'Failed to update order',
  loadingOrder: 'Loading order...',
} as const;


/**
 * POST /api/admin/verify-password: kept from the spec as a compatibility answer. 200
 * `{authenticated: true}` with a live staff session; 401 without one. Nothing is read from the body.
 */
export const verifyPasswordResponseSchema = z.object({ authenticated: z.boolean() });
export type VerifyPasswordResponse = z.infer<typeof verifyPasswordResponseSchema>;

const storeCode = textField({ max: STORE_CODE_MAX_LENGTH, required: ADMIN_MESSAGES.storeCode, tooLong: ADMIN_MESSAGES.storeCode })
  .min(1, ADMIN_MESSAGES.storeCode)
  .default(STORE_CODE);

// ---------------------------------------------------------------- promo codes
export const adminPromoCodeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  discountType: z.enum(DISCOUNT_TYPES),
  /** Percent for a percentage code, whole dollars for a fixed code. */
  discountValue: z.number().int(),
  isActive: z.boolean(),
});
export type AdminPromoCode = z.infer<typeof adminPromoCodeSchema>;

/** Largest fixed discount, in whole dollars (keeps a typo from creating a $1,000,000 code). */
export const MAX_FIXED_DISCOUNT_DOLLARS = 10_000;

export const createPromoCodeSchema = z
  .object({
    code: textField({ max: LIMITS.promoCodeMaxLength, required: ADMIN_MESSAGES.promoCodeRequired, tooLong: ADMIN_MESSAGES.promoCodeTooLong })
      .toUpperCase()
      .min(1, ADMIN_MESSAGES.promoCodeRequired),
    discountType: z.enum(DISCOUNT_TYPES, { error: ADMIN_MESSAGES.discountType }),
    discountValue: z.number({ error: ADMIN_MESSAGES.discountValueRequired }).int(ADMIN_MESSAGES.discountValueInteger),
  })
  .superRefine((input, ctx) => {
    const { discountType, discountValue } = input;
    if (discountType === 'percentage' && (discountValue < 1 || discountValue > 100)) {
      ctx.addIssue({ code: 'custom', path: ['discountValue'], message: ADMIN_MESSAGES.percentageRange });
    }
    if (discountType === 'fixed' && discountValue < 1) ctx.addIssue({ code: 'custom', path: ['discountValue'], message: ADMIN_MESSAGES.fixedRange });
    if (discountType === 'fixed' && discountValue > MAX_FIXED_DISCOUNT_DOLLARS) {
      ctx.addIssue({ code: 'custom', path: ['discountValue'], message: ADMIN_MESSAGES.fixedTooLarge });
    }
  });
export type CreatePromoCodeInput = z.input<typeof createPromoCodeSchema>;

// ---------------------------------------------------------------- products
/** Kebab-case: lowercase letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const MONEY_TEXT = /^\d{1,8}(\.\d{1,2})?$/;
/**
 * A tax provider's product tax code (issue 25): 1-25 letters, digits, dots and hyphens, such as TaxJar's
 * `31000` or Avalara's `P0000000`. The column's check (products_tax_code_format) is the same rule.
 */
export const TAX_CODE_PATTERN = /^[A-Za-z0-9.-]{1,25}$/;

/** A non-negative amount with at most 2 decimals, as "12.99" or 12.99, into cents. */
const moneyInput = (format: string, required: string = format) =>
  z
    .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined || issue.input === null ? required : format) })
    .transform((v) => (typeof v === 'number' ? (Number.isFinite(v) && v >= 0 ? v.toFixed(2) : '-') : v.trim()))
    .refine((v) => v !== '', required)
    .refine((v) => v === '' || MONEY_TEXT.test(v), format)
    .transform((v) => toCents(v));

/** An optional value whose empty text means "none". */
const emptyAsNull = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable());

/** Optional text: trimmed; empty (or null) becomes null. Multi-line for the admin form's text areas. */
const optionalText = (max: number, multiline = false) =>
  textField({ max, multiline })
    .nullable()
    .transform((v) => v || null);

const stringList = (item: z.ZodType<string, string> = textField({ max: 2_000 }).min(1)) =>
  z.array(z.string()).transform((list) => list.map((s) => s.trim()).filter(Boolean)).pipe(z.array(item).max(200));

export const adminVariantSchema = z.object({
  label: textField({ max: 100 }).min(1),
  /** Stored as the catalogue shows it: a two-decimal string. */
  price: moneyInput(ADMIN_MESSAGES.priceFormat).transform(centsToDecimal),
  sku: textField({ max: 100 }).min(1),
});

/**
 * The product fields of POST /api/products and PUT /api/products/{id} . On create,
 * name, slug, price and categoryId are required; on update every field is optional and only the fields
 * sent change. Money arrives as "12.99" or 12.99 and is parsed to cents; weight stays a 2-decimal string.
 */
export const productFieldsSchema = z.object({
  name: textField({ max: 200, required: ADMIN_MESSAGES.nameRequired }).min(1, ADMIN_MESSAGES.nameRequired),
  slug: textField({ max: 200, required: ADMIN_MESSAGES.slugRequired }).min(1, ADMIN_MESSAGES.slugRequired).regex(SLUG_PATTERN, ADMIN_MESSAGES.slugFormat),
  description: optionalText(10_000, true),
  shortDescription: optionalText(1_000, true),
  price: moneyInput(ADMIN_MESSAGES.priceFormat, ADMIN_MESSAGES.priceRequired),
  compareAtPrice: emptyAsNull(moneyInput(ADMIN_MESSAGES.compareAtPriceFormat)),
  categoryId: idField(ADMIN_MESSAGES.categoryRequired, ADMIN_MESSAGES.categoryMissing).nullable(),
  status: z.enum(PRODUCT_STATUSES, { error: ADMIN_MESSAGES.statusFormat }),
  inventory: z.number({ error: ADMIN_MESSAGES.inventoryFormat }).int(ADMIN_MESSAGES.inventoryFormat).min(0, ADMIN_MESSAGES.inventoryFormat).max(2_000_000_000, ADMIN_MESSAGES.inventoryFormat),
  weight: emptyAsNull(
    z
      .union([z.string(), z.number()], { error: ADMIN_MESSAGES.weightFormat })
      .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
      .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(v), ADMIN_MESSAGES.weightFormat)
      .transform((v) => Number(v).toFixed(2)),
  ),
  images: stringList(z.string().regex(IMAGE_NAME, ADMIN_MESSAGES.imageName)),
  ingredients: stringList(),
  features: stringList(),
  uses: stringList(),
  benefits: stringList(),
  instructions: optionalText(10_000, true),
  cautions: optionalText(10_000, true),
  itemNumber: optionalText(100),
  sku: optionalText(100),
  upc: optionalText(100),
  caseUpc: optionalText(100),
  size: optionalText(100),
  /** A tax provider's product tax code; empty (or null) means general merchandise. */
  taxCode: emptyAsNull(textField({ max: 25, required: ADMIN_MESSAGES.taxCodeFormat, tooLong: ADMIN_MESSAGES.taxCodeFormat }).regex(TAX_CODE_PATTERN, ADMIN_MESSAGES.taxCodeFormat)),
  caseCount: z.number({ error: ADMIN_MESSAGES.caseCountFormat }).int(ADMIN_MESSAGES.caseCountFormat).min(0, ADMIN_MESSAGES.caseCountFormat).max(1_000_000, ADMIN_MESSAGES.caseCountFormat).nullable(),
  kitContents: stringList(z.string().regex(SLUG_PATTERN, ADMIN_MESSAGES.kitContentMissing)),
  isStarterKit: z.boolean(),
  isBestseller: z.boolean(),
  isRefill: z.boolean(),
  isFragranceFree: z.boolean(),
  variants: z.array(adminVariantSchema).max(50),
});

/** POST /api/products: name, slug, price, categoryId required; the rest optional (defaults of the table). */
export const createProductSchema = productFieldsSchema.partial().extend({
  name: productFieldsSchema.shape.name,
  slug: productFieldsSchema.shape.slug,
  price: productFieldsSchema.shape.price,
  categoryId: productFieldsSchema.shape.categoryId.unwrap(),
});
export type CreateProductInput = z.input<typeof createProductSchema>;
export type CreateProductFields = z.output<typeof createProductSchema>;

/** PUT /api/products/{id}: only the fields sent change. */
export const updateProductSchema = productFieldsSchema.partial();
export type UpdateProductInput = z.input<typeof updateProductSchema>;
export type UpdateProductFields = z.output<typeof updateProductSchema>;

/** Comma-separated text of the admin forms into a list: trimmed, empty entries dropped. */
export const splitCommaList = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

// ---------------------------------------------------------------- orders
export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES, { error: ADMIN_MESSAGES.orderStatus });
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Default and largest page of POST /api/admin/orders. */
export const ADMIN_ORDERS_PAGE_SIZE = 100;

const isoDay = z
  .string({ error: 'Dates must be written as yyyy-mm-dd.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be written as yyyy-mm-dd.')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Dates must be written as yyyy-mm-dd.');
const emptyToUndefined = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === 'all' || v === null ? undefined : v), schema.optional());

/** The order table's sortable columns (each backed by an index, so a sorted first page stays fast). */
export const ADMIN_ORDER_SORTS = ['createdAt', 'total'] as const;
export type AdminOrderSort = (typeof ADMIN_ORDER_SORTS)[number];

/** The order table counts matches up to this many; beyond it the total reads "1,000+" (a full count of a million rows on every page costs more than it tells). */
export const ADMIN_ORDERS_COUNT_CAP = 1_000;

/** An order's payment state (issue 23): what happened to its money, as the table shows and filters it. */
export const PAYMENT_STATES = ['paid', 'partially_refunded', 'refunded', 'voided', 'unpaid'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The words staff read for each payment state. */
export const PAYMENT_STATE_LABELS: Record<PaymentState, string> = {
  paid: 'Paid',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  voided: 'Voided',
  unpaid: 'Not paid',
};

export const PAYMENT_STATE_MESSAGE = 'Payment state must be paid, partially_refunded, refunded, voided or unpaid';

export const adminOrdersRequestSchema = z
  .object({
    storeCode,
    /** Order id prefix, or part of the customer's name or e-mail (case-insensitive). */
    search: textField({ max: 200, tooLong: ADMIN_MESSAGES.searchTooLong }).optional(),
    /** A status, or 'all' / empty for every status. */
    status: z
      .union([orderStatusSchema, z.literal('all'), z.literal('')], { error: ADMIN_MESSAGES.orderStatus })
      .optional()
      .transform((s) => (s === 'all' || s === '' ? undefined : s)),
    /** A NetSuite sync status, or 'all' / empty. */
    netsuiteStatus: emptyToUndefined(z.enum(SYNC_STATUSES, { error: 'NetSuite status must be pending, synced, failed or not configured' })),
    /** Issue 23: the payment state (paid, partially refunded, refunded, voided, not paid), or 'all' / empty. */
    paymentState: emptyToUndefined(z.enum(PAYMENT_STATES, { error: PAYMENT_STATE_MESSAGE })),
    /** Placed on or after this UTC day. */
    from: emptyToUndefined(isoDay),
    /** Placed on or before this UTC day. */
    to: emptyToUndefined(isoDay),
    /** Orders that used this promo code (exact, case-insensitive). */
    promo: emptyToUndefined(textField({ max: LIMITS.promoCodeMaxLength, tooLong: ADMIN_MESSAGES.promoCodeTooLong }).toUpperCase()),
    sort: z.enum(ADMIN_ORDER_SORTS, { error: 'Sort by createdAt or total' }).default('createdAt'),
    direction: z.enum(['asc', 'desc'], { error: 'Direction must be asc or desc' }).default('desc'),
    limit: z
      .number({ error: ADMIN_MESSAGES.pageLimit })
      .int(ADMIN_MESSAGES.pageLimit)
      .min(1, ADMIN_MESSAGES.pageLimit)
      .max(ADMIN_ORDERS_PAGE_SIZE, ADMIN_MESSAGES.pageLimit)
      .default(ADMIN_ORDERS_PAGE_SIZE),
    offset: z.number({ error: ADMIN_MESSAGES.pageOffset }).int(ADMIN_MESSAGES.pageOffset).min(0, ADMIN_MESSAGES.pageOffset).max(10_000_000, ADMIN_MESSAGES.pageOffset).default(0),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The "from" date must be on or before the "to" date.', path: ['from'] });
export type AdminOrdersRequest = z.input<typeof adminOrdersRequestSchema>;

export const adminOrderRequestSchema = z.object({ storeCode });

export const updateOrderSchema = z.object({
  storeCode,
  trackingNumber: textField({ max: 100, tooLong: ADMIN_MESSAGES.trackingTooLong })
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
  /** '' (or null, or 'none') clears the carrier. */
  carrier: z
    .union([z.enum(CARRIERS), z.literal(''), z.literal('none'), z.null()], { error: ADMIN_MESSAGES.carrier })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === '' || v === 'none' || v === null ? null : v)),
  status: orderStatusSchema.optional(),
  /** When the order becomes cancelled: put its items back in stock (the default), or not (lost or damaged). */
  restock: z.boolean({ error: 'Restock must be true or false' }).optional(),
});
export type UpdateOrderInput = z.input<typeof updateOrderSchema>;

const money = z.string();
const address = z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() });

export const adminOrderSummarySchema = z.object({
  id: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  /** Two-decimal string. */
  total: money,
  status: orderStatusSchema,
  createdAt: z.string(),
  trackingNumber: z.string().nullable(),
  carrier: z.string().nullable(),
  netsuiteSyncStatus: z.string(),
  promoCode: z.string().nullable(),
  /** Issue 23: what happened to the order's money (PAYMENT_STATE_LABELS has the words) and what was given back, 2-decimal string. */
  paymentState: z.enum(PAYMENT_STATES).default('paid'),
  refunded: money.default('0.00'),
});
export type AdminOrderSummary = z.infer<typeof adminOrderSummarySchema>;

export const adminOrderItemSchema = z.object({
  productId: z.number().int().nullable(),
  productName: z.string().nullable(),
  quantity: z.number().int(),
  /** Unit price, two-decimal string. */
  price: money,
  sku: z.string().nullable(),
  variantSku: z.string().nullable(),
  /** The line's own tax (issue 25), two-decimal string; null on an order from before (its tax is spread over the lines). */
  tax: money.nullable().optional(),
});

export const adminOrderSchema = adminOrderSummarySchema.extend({
  storeCode: z.string(),
  customerPhone: z.string().nullable(),
  shippingAddress: address,
  billingAddress: address.nullable(),
  items: z.array(adminOrderItemSchema),
  subtotal: money,
  /** The whole discount; its Subscribe & Save and promo parts below, each shown on its own line (`discountLines` of @nh/shared/pricing). */
  discount: money,
  subscribeDiscount: money,
  promoDiscount: money,
  shipping: money,
  tax: money,
  /** The part of `tax` due on shipping (issue 25; 0.00 under the flat rule): a refund of the shipping gives it back too. */
  shippingTax: money.optional(),
  /** Issue 25: standard or express; where the tax came from (null before issue 25: the flat rule). Shown in words (order-delivery.ts). */
  shippingMethod: shippingMethodFieldSchema.default('standard'),
  taxSource: taxSourceSchema.nullable().default(null),
  promoCode: z.string().nullable(),
  customerNotes: z.string().nullable(),
  paymentTransactionId: z.string().nullable(),
  /** The Subscribe & Save plan this order delivers (its first order or a renewal), if any. */
  subscriptionId: z.string().nullable(),
  /** The shopper account that placed it (its customer id in the back office); null for a guest's order. */
  userId: z.string().nullable(),
  /** Store credit (issue 23): the part of the total paid with credit; the card paid the rest. */
  creditApplied: money,
  /** That plan's skipped periods (not charged, not shipped), oldest first; empty without a plan. */
  subscriptionSkippedPeriods: z.array(skippedPeriodSchema),
  deliveredDate: z.string().nullable(),
  updatedAt: z.string(),
  netsuiteSyncError: z.string().nullable(),
  /** The order's payment rows, oldest first: its charge, then each refund or void (contracts/refunds.ts). */
  payments: z.array(adminPaymentSchema),
  /** What can still be refunded (the captured charge less refunds and voids, approved or in flight), 2-decimal string. */
  refundable: money,
  /**
   * Why the order cannot be marked shipped or delivered, in staff words (its whole payment was voided or
   * refunded, or is being refunded); null when it can. The same sentence as the refusal (ORDER_PAYMENT_RETURNED).
   */
  shippingBlockedReason: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** An order date as the admin screens show it: 'MMM d, yyyy h:mm a' in the viewer's time zone. */
export const formatOrderDate = (iso: string): string => format(new Date(iso), ORDER_DATE_FORMAT);

/** The CSV download's name for a given day: nh-orders-{yyyy-MM-dd}.csv. */
export const exportDownloadName = (day: Date = new Date()): string => exportFileName(format(day, EXPORT_FILE_DATE_FORMAT));
