/**
 * Storefront catalogue responses (GET /api/categories, /api/products, /api/blog, /api/impact,
 * /api/ingredients). The API serialises to these shapes; the SPA imports the types. Money is a
 * two-decimal string ("12.99") as the spec's payloads show it; convert with `toCents` before any sum.
 */
import { z } from 'zod';

const decimalString = z.string().regex(/^-?\d+\.\d{2}$/, 'Expected a two-decimal amount such as "12.99"');
const isoDate = z.string();

export const PRODUCT_STATUSES = ['active', 'inactive', 'out_of_stock'] as const;
export const productStatusSchema = z.enum(PRODUCT_STATUSES);
export type ProductStatus = z.infer<typeof productStatusSchema>;

/** Statuses shown to shoppers; `inactive` products are hidden from every public catalogue call. */
export const PUBLIC_PRODUCT_STATUSES = ['active', 'out_of_stock'] as const satisfies readonly ProductStatus[];

export const categorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  createdAt: isoDate,
});
export type Category = z.infer<typeof categorySchema>;

export const categoryRefSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });
export type CategoryRef = z.infer<typeof categoryRefSchema>;

export const productVariantSchema = z.object({ sku: z.string(), label: z.string(), price: decimalString });
export type ProductVariant = z.infer<typeof productVariantSchema>;

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  shortDescription: z.string().nullable(),
  price: decimalString,
  compareAtPrice: decimalString.nullable(),
  /** File names served from /api/public/{file}; the first is the main picture. */
  images: z.array(z.string()),
  categoryId: z.number().int().nullable(),
  category: categoryRefSchema.nullable(),
  status: productStatusSchema,
  inventory: z.number().int(),
  /** Ounces, two-decimal string, or null. */
  weight: z.string().nullable(),
  itemNumber: z.string().nullable(),
  sku: z.string().nullable(),
  upc: z.string().nullable(),
  caseUpc: z.string().nullable(),
  size: z.string().nullable(),
  caseCount: z.number().int().nullable(),
  /** A tax provider's product tax code (issue 25), e.g. "31000"; null: general merchandise. */
  taxCode: z.string().nullable(),
  ingredients: z.array(z.string()),
  features: z.array(z.string()),
  uses: z.array(z.string()),
  benefits: z.array(z.string()),
  instructions: z.string().nullable(),
  cautions: z.string().nullable(),
  /** Slugs of the products a starter kit contains. */
  kitContents: z.array(z.string()),
  isStarterKit: z.boolean(),
  isBestseller: z.boolean(),
  isRefill: z.boolean(),
  isFragranceFree: z.boolean(),
  variants: z.array(productVariantSchema),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Product = z.infer<typeof productSchema>;

/**
 * A product's rating as shoppers are shown it: the average of its visible reviews (one decimal) and how
 * many there are; null when it has none, and then no rating is shown at all (a shop may not show a
 * rating it does not have: the US FTC's 2024 rule on consumer reviews; docs/decisions/storefront-web.md).
 */
export const productRatingSchema = z.object({ average: z.number().min(1).max(5), count: z.number().int().positive() });
export type ProductRating = z.infer<typeof productRatingSchema>;

/**
 * The rating of `count` reviews whose ratings add up to `sum`: the average to one decimal (half up,
 * exact: from integers), the same on the product card, the product page and in its JSON-LD.
 */
export function ratingOf(sum: number, count: number): ProductRating | null {
  if (!(count > 0)) return null;
  return { average: Math.round((sum * 10) / count) / 10, count };
}

/** A product as the storefront's catalogue answers it (GET /api/products, /api/products/{slug}): with its rating. */
export const storefrontProductSchema = productSchema.extend({ rating: productRatingSchema.nullable() });
export type StorefrontProduct = z.infer<typeof storefrontProductSchema>;

export const faqSchema = z.object({ q: z.string(), a: z.string() });
export const internalLinkSchema = z.object({ anchor: z.string(), href: z.string() });

/** A journal card (GET /api/blog): everything but the body and the article-only extras. */
export const blogPostSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string().nullable(),
  image: z.string().nullable(),
  author: z.string().nullable(),
  /** Minutes; null means "not given" (the SPA shows LIMITS.blogFallbackReadTime). */
  readTime: z.number().int().nullable(),
  category: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

/** A full article (GET /api/blog/{slug}). `content` uses the journal's simple markup. */
export const blogPostSchema = blogPostSummarySchema.extend({
  content: z.string(),
  published: z.boolean(),
  metaTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  targetKeywords: z.array(z.string()),
  faqs: z.array(faqSchema),
  internalLinks: z.array(internalLinkSchema),
  schemaJsonLd: z.array(z.unknown()),
});
export type BlogPost = z.infer<typeof blogPostSchema>;

export const ingredientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** EWG hazard score 1-10; null = not rated yet ("Pending"). */
  ewgRating: z.number().int().nullable(),
  safetyInfo: z.string().nullable(),
  source: z.string().nullable(),
  function: z.string().nullable(),
  createdAt: isoDate,
});
export type Ingredient = z.infer<typeof ingredientSchema>;

export const impactStatsSchema = z.object({
  bottlesSaved: z.number().int(),
  chemicalsAvoided: z.number().int(),
  homesHelped: z.number().int(),
  updatedAt: isoDate,
});
export type ImpactStats = z.infer<typeof impactStatsSchema>;

/** Body of every 4xx/5xx answer of the API. */
export const apiErrorSchema = z.object({ message: z.string() });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

export const CATALOG_MESSAGES = {
  productNotFound: 'Product not found',
  categoryNotFound: 'Category not found',
  articleNotFound: 'Article not found',
  impactMissing: 'Impact figures are not available yet',
  badProductId: 'Product id must be a positive whole number',
} as const;
