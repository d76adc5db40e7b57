/**
 * The Create/Edit Product form: text inputs in, the API's product fields out. Rules of spec §5: name,
 * slug and price required (category too on create); money step 0.01; inventory an integer, default 0;
 * comma-separated lists trimmed with empty entries dropped; empty optional text sent as null; on edit,
 * isStarterKit follows whether kitContents is non-empty. Variants (issue 11) are rows of label, price and
 * SKU, each required, SKUs distinct; an uploaded picture's name is added to the images list. The tax code
 * (issue 25) is optional: empty is sent as null (general merchandise).
 */
import { ADMIN_MESSAGES, SLUG_PATTERN, splitCommaList, TAX_CODE_PATTERN, type UpdateProductInput } from '@nh/shared/contracts/admin';
import type { Product } from '@nh/shared/contracts/catalog';
import { z } from 'zod';

const MONEY = /^\d{1,8}(\.\d{1,2})?$/;
const optionalMoney = (message: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || MONEY.test(v), message);

/** The variant editor's messages (the server's own rules: label and SKU 1-100 characters, price as the product's). */
export const VARIANT_MESSAGES = {
  labelRequired: 'Variant label is required (e.g. "32 oz")',
  priceRequired: 'Variant price is required',
  skuRequired: 'Variant SKU is required',
  skuTaken: 'Each variant needs its own SKU',
  tooMany: 'A product can have at most 50 variants',
  tooLong: 'At most 100 characters',
} as const;

export const MAX_VARIANTS = 50;

const variantFormSchema = z.object({
  label: z.string().trim().min(1, VARIANT_MESSAGES.labelRequired).max(100, VARIANT_MESSAGES.tooLong),
  price: z
    .string()
    .trim()
    .min(1, VARIANT_MESSAGES.priceRequired)
    .refine((v) => v === '' || MONEY.test(v), ADMIN_MESSAGES.priceFormat),
  sku: z.string().trim().min(1, VARIANT_MESSAGES.skuRequired).max(100, VARIANT_MESSAGES.tooLong),
});
export type VariantFormValues = z.infer<typeof variantFormSchema>;
export const emptyVariant: VariantFormValues = { label: '', price: '', sku: '' };

/** Every row valid, at most MAX_VARIANTS, and no SKU twice (the later rows are marked). */
const variantsSchema = z
  .array(variantFormSchema)
  .max(MAX_VARIANTS, VARIANT_MESSAGES.tooMany)
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      const sku = row.sku.trim().toLowerCase();
      if (sku && seen.has(sku)) ctx.addIssue({ code: 'custom', path: [index, 'sku'], message: VARIANT_MESSAGES.skuTaken });
      seen.add(sku);
    });
  });

export const productFormSchema = z.object({
  name: z.string().trim().min(1, ADMIN_MESSAGES.nameRequired),
  slug: z
    .string()
    .trim()
    .min(1, ADMIN_MESSAGES.slugRequired)
    .refine((v) => v === '' || SLUG_PATTERN.test(v), ADMIN_MESSAGES.slugFormat),
  description: z.string(),
  shortDescription: z.string(),
  price: z
    .string()
    .trim()
    .min(1, ADMIN_MESSAGES.priceRequired)
    .refine((v) => v === '' || MONEY.test(v), ADMIN_MESSAGES.priceFormat),
  compareAtPrice: optionalMoney(ADMIN_MESSAGES.compareAtPriceFormat),
  categoryId: z.string(),
  status: z.enum(['active', 'inactive', 'out_of_stock']),
  inventory: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{1,9}$/.test(v), ADMIN_MESSAGES.inventoryFormat),
  weight: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{1,6}(\.\d{1,2})?$/.test(v), ADMIN_MESSAGES.weightFormat),
  images: z.string(),
  ingredients: z.string(),
  features: z.string(),
  uses: z.string(),
  benefits: z.string(),
  instructions: z.string(),
  cautions: z.string(),
  itemNumber: z.string(),
  sku: z.string(),
  upc: z.string(),
  size: z.string(),
  /** Optional: empty is general merchandise (the server's rule, TAX_CODE_PATTERN). */
  taxCode: z
    .string()
    .trim()
    .refine((v) => v === '' || TAX_CODE_PATTERN.test(v), ADMIN_MESSAGES.taxCodeFormat),
  kitContents: z.string(),
  isStarterKit: z.boolean(),
  variants: variantsSchema,
});
export type ProductFormValues = z.infer<typeof productFormSchema>;

/** On create the category is required too. */
export const createProductFormSchema = productFormSchema.refine((v) => v.categoryId !== '', {
  path: ['categoryId'],
  message: ADMIN_MESSAGES.categoryRequired,
});

export const emptyProductForm: ProductFormValues = {
  name: '',
  slug: '',
  description: '',
  shortDescription: '',
  price: '',
  compareAtPrice: '',
  categoryId: '',
  status: 'active',
  inventory: '0',
  weight: '',
  images: '',
  ingredients: '',
  features: '',
  uses: '',
  benefits: '',
  instructions: '',
  cautions: '',
  itemNumber: '',
  sku: '',
  upc: '',
  size: '',
  taxCode: '',
  kitContents: '',
  isStarterKit: false,
  variants: [],
};

const joinList = (list: string[]) => list.join(', ');

export function productToForm(product: Product): ProductFormValues {
  return {
    name: product.name,
    slug: product.slug,
    description: product.description ?? '',
    shortDescription: product.shortDescription ?? '',
    price: product.price,
    compareAtPrice: product.compareAtPrice ?? '',
    categoryId: product.categoryId === null ? '' : String(product.categoryId),
    status: product.status,
    inventory: String(product.inventory),
    weight: product.weight ?? '',
    images: joinList(product.images),
    ingredients: joinList(product.ingredients),
    features: joinList(product.features),
    uses: joinList(product.uses),
    benefits: joinList(product.benefits),
    instructions: product.instructions ?? '',
    cautions: product.cautions ?? '',
    itemNumber: product.itemNumber ?? '',
    sku: product.sku ?? '',
    upc: product.upc ?? '',
    size: product.size ?? '',
    taxCode: product.taxCode ?? '',
    kitContents: joinList(product.kitContents),
    isStarterKit: product.isStarterKit,
    variants: product.variants.map((v) => ({ label: v.label, price: v.price, sku: v.sku })),
  };
}

const textOrNull = (text: string) => text.trim() || null;

/** The API payload of a valid form. `mode` decides isStarterKit (checkbox on create, derived on edit). */
export function formToPayload(values: ProductFormValues, mode: 'create' | 'edit'): UpdateProductInput {
  const kitContents = splitCommaList(values.kitContents);
  return {
    name: values.name.trim(),
    slug: values.slug.trim(),
    description: textOrNull(values.description),
    shortDescription: textOrNull(values.shortDescription),
    price: values.price.trim(),
    compareAtPrice: textOrNull(values.compareAtPrice),
    categoryId: values.categoryId === '' ? null : Number(values.categoryId),
    status: values.status,
    inventory: values.inventory.trim() === '' ? 0 : Number.parseInt(values.inventory, 10),
    weight: textOrNull(values.weight),
    images: splitCommaList(values.images),
    ingredients: splitCommaList(values.ingredients),
    features: splitCommaList(values.features),
    uses: splitCommaList(values.uses),
    benefits: splitCommaList(values.benefits),
    instructions: textOrNull(values.instructions),
    cautions: textOrNull(values.cautions),
    itemNumber: textOrNull(values.itemNumber),
    sku: textOrNull(values.sku),
    upc: textOrNull(values.upc),
    size: textOrNull(values.size),
    taxCode: textOrNull(values.taxCode),
    kitContents,
    isStarterKit: mode === 'create' ? values.isStarterKit : kitContents.length > 0,
    variants: values.variants.map((v) => ({ label: v.label.trim(), price: v.price.trim(), sku: v.sku.trim() })),
  };
}

/** The images list with `name` added at the end (once). */
export function addImage(images: string, name: string): string {
  const list = splitCommaList(images);
  return (list.includes(name) ? list : [...list, name]).join(', ');
}

/** The images list without the entry at `index`. */
export const removeImage = (images: string, index: number): string =>
  splitCommaList(images)
    .filter((_, i) => i !== index)
    .join(', ');

/** "Surfy All-Purpose Cleaner" → "surfy-all-purpose-cleaner" (suggested while the slug is untouched). */
export const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
