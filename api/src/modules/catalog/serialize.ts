import { centsToDecimal, parseCents } from '@nh/shared';
import { ratingOf, type BlogPost, type BlogPostSummary, type Category, type Ingredient, type ImpactStats, type Product, type ProductVariant, type StorefrontProduct } from '@nh/shared/contracts/catalog';
import * as tables from '@nh/server/db/schema';

type ProductRow = typeof tables.products.$inferSelect;
type CategoryRow = typeof tables.categories.$inferSelect;
type BlogRow = typeof tables.blogPosts.$inferSelect;
type BlogSummaryRow = Pick<BlogRow, 'id' | 'title' | 'slug' | 'excerpt' | 'image' | 'author' | 'readTime' | 'category' | 'createdAt' | 'updatedAt'>;

/** Variants are free-form JSON (admin-edited): normalise to the contract, dropping unusable entries. */
function toVariants(raw: unknown): ProductVariant[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((v: Record<string, unknown>) => {
    const cents = parseCents(v?.price);
    if (cents === null || typeof v.sku !== 'string') return [];
    const label = typeof v.label === 'string' && v.label ? v.label : typeof v.size === 'string' && v.size ? v.size : 'Standard';
    return [{ sku: v.sku, label, price: centsToDecimal(cents) }];
  });
}

export function toProduct(row: ProductRow, category: Pick<CategoryRow, 'id' | 'name' | 'slug'> | null): Product {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    shortDescription: row.shortDescription,
    price: centsToDecimal(row.price),
    compareAtPrice: row.compareAtPrice === null ? null : centsToDecimal(row.compareAtPrice),
    images: row.images,
    categoryId: row.categoryId,
    category: category ? { id: category.id, name: category.name, slug: category.slug } : null,
    status: row.status,
    inventory: row.inventory,
    weight: row.weight,
    itemNumber: row.itemNumber,
    sku: row.sku,
    upc: row.upc,
    caseUpc: row.caseUpc,
    size: row.size,
    caseCount: row.caseCount,
    taxCode: row.taxCode,
    ingredients: row.ingredients,
    features: row.features,
    uses: row.uses,
    benefits: row.benefits,
    instructions: row.instructions,
    cautions: row.cautions,
    kitContents: row.kitContents,
    isStarterKit: row.isStarterKit,
    isBestseller: row.isBestseller,
    isRefill: row.isRefill,
    isFragranceFree: row.isFragranceFree,
    variants: toVariants(row.variants),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A product as the storefront shows it: with the rating of its visible reviews (null without any). */
export function toStorefrontProduct(
  row: ProductRow,
  category: Pick<CategoryRow, 'id' | 'name' | 'slug'> | null,
  reviews: { count: number; sum: number } | null,
): StorefrontProduct {
  return { ...toProduct(row, category), rating: reviews ? ratingOf(reviews.sum, reviews.count) : null };
}

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, name: row.name, slug: row.slug, description: row.description, image: row.image, createdAt: row.createdAt.toISOString() };
}

export function toBlogPostSummary(row: BlogSummaryRow): BlogPostSummary {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    image: row.image,
    author: row.author,
    readTime: row.readTime,
    category: row.category,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toBlogPost(row: BlogRow): BlogPost {
  return {
    ...toBlogPostSummary(row),
    content: row.content,
    published: row.published,
    metaTitle: row.metaTitle,
    metaDescription: row.metaDescription,
    targetKeywords: row.targetKeywords,
    faqs: row.faqs,
    internalLinks: row.internalLinks,
    schemaJsonLd: row.schemaJsonLd,
  };
}

export function toIngredient(row: typeof tables.ingredients.$inferSelect): Ingredient {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ewgRating: row.ewgRating,
    safetyInfo: row.safetyInfo,
    source: row.source,
    function: row.function,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toImpactStats(row: typeof tables.impactStats.$inferSelect): ImpactStats {
  return { bottlesSaved: row.bottlesSaved, chemicalsAvoided: row.chemicalsAvoided, homesHelped: row.homesHelped, updatedAt: row.updatedAt.toISOString() };
}
