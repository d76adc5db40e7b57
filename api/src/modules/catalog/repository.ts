/** Catalogue queries: each public read is exactly one SQL statement. */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PUBLIC_PRODUCT_STATUSES } from '@nh/shared/contracts/catalog';
import { tables, type DbOrTx } from '@nh/server';

const { products, categories, blogPosts, ingredients, impactStats, reviews } = tables;
const categoryRef = { id: categories.id, name: categories.name, slug: categories.slug };
const isPublic = inArray(products.status, [...PUBLIC_PRODUCT_STATUSES]);

/**
 * Each product's visible reviews (hidden ones are not shown: moderation), as one aggregate joined
 * laterally in the same statement: how many, and the sum of their ratings (`ratingOf` of the catalogue
 * contract makes the average). One index range per product (reviews (product_id, created_at)).
 */
const rating = (db: DbOrTx) =>
  db
    .select({ count: sql<number>`count(*)::int`.as('review_count'), sum: sql<number>`coalesce(sum(${reviews.rating}), 0)::int`.as('rating_sum') })
    .from(reviews)
    .where(and(eq(reviews.productId, products.id), isNull(reviews.hiddenAt)))
    .as('rating');

export const listCategories = (db: DbOrTx) => db.select().from(categories).orderBy(asc(categories.id));

export async function findCategory(db: DbOrTx, slug: string) {
  const [row] = await db.select().from(categories).where(eq(categories.slug, slug));
  return row;
}

export const listPublicProducts = (db: DbOrTx) => {
  const r = rating(db);
  return db
    .select({ product: products, category: categoryRef, rating: { count: r.count, sum: r.sum } })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .leftJoinLateral(r, sql`true`)
    .where(isPublic)
    // Case-blind, whatever the database's collation ("Washy c…" and "Washy P…" side by side).
    .orderBy(sql`lower(${products.name})`, asc(products.name), asc(products.id));
};

export async function findPublicProduct(db: DbOrTx, slug: string) {
  const r = rating(db);
  const [row] = await db
    .select({ product: products, category: categoryRef, rating: { count: r.count, sum: r.sum } })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .leftJoinLateral(r, sql`true`)
    .where(and(eq(products.slug, slug), isPublic));
  return row;
}

export const listPublishedPosts = (db: DbOrTx) =>
  db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      excerpt: blogPosts.excerpt,
      image: blogPosts.image,
      author: blogPosts.author,
      readTime: blogPosts.readTime,
      category: blogPosts.category,
      createdAt: blogPosts.createdAt,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));

export async function findPublishedPost(db: DbOrTx, slug: string) {
  const [row] = await db.select().from(blogPosts).where(and(eq(blogPosts.slug, slug), eq(blogPosts.published, true)));
  return row;
}

/** Rated ingredients by rating (best first), then the unrated ones; by name within a rating. */
export const listIngredients = (db: DbOrTx) =>
  db.select().from(ingredients).orderBy(sql`${ingredients.ewgRating} asc nulls last`, asc(ingredients.name));

/** The shop keeps one impact row; the newest wins if there are more. */
export async function currentImpact(db: DbOrTx) {
  const [row] = await db.select().from(impactStats).orderBy(desc(impactStats.updatedAt), desc(impactStats.id)).limit(1);
  return row;
}
