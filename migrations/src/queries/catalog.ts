/**
 * The storefront's catalogue reads, each exactly one SQL statement: the public lists and records (also
 * the heads the server writes for a page), the prices the checkout prices a cart with, and what the
 * sitemap lists.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type pg from 'pg';
import { PUBLIC_PRODUCT_STATUSES } from '@nh/shared/contracts/catalog';
import type { Db, DbOrTx } from '../db/client';
import { blogPosts, categories, impactStats, ingredients, products, reviews } from '../db/schema';

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

/** A product as the order write path prices it: price and variants as stored (text), for the reservation guard to compare. */
export interface ProductPriceRow {
  id: number;
  name: string;
  status: string;
  price: string;
  variants: string;
  sku: string | null;
  itemNumber: string | null;
  /** products.tax_code: a tax provider's product tax code; null: general goods. */
  taxCode: string | null;
  inventory: number;
}

/** The products with these ids, as priced (unknown ids are absent). */
export async function readProductPrices(pool: pg.Pool, ids: readonly number[]): Promise<ProductPriceRow[]> {
  const { rows } = await pool.query<{ id: number; name: string; status: string; price: string; variants: string; sku: string | null; item_number: string | null; tax_code: string | null; inventory: number }>({
    name: 'price_list_read',
    text: `select id, name, status::text as status, price::text as price, variants::text as variants, sku, item_number, tax_code, inventory
    from products where id = any($1::int[])`,
    values: [[...ids]],
  });
  return rows.map(({ item_number, tax_code, ...r }) => ({ ...r, itemNumber: item_number, taxCode: tax_code }));
}

export type SiteMapRow = {
  kind: 'product' | 'category' | 'article';
  slug: string;
  /** The row's last change; a category's is the latest of its public products (null without any). */
  modified: Date | null;
};

/** What the sitemap lists, in one statement: every public product, each category, every published journal article. */
export async function siteMapRows(db: Db): Promise<SiteMapRow[]> {
  const statuses = sql.join(
    PUBLIC_PRODUCT_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const { rows } = await db.execute<SiteMapRow>(sql`
    select 'product' as kind, slug, updated_at as modified from products where status::text in (${statuses})
    union all
    select 'category', c.slug, max(p.updated_at) from categories c
      left join products p on p.category_id = c.id and p.status::text in (${statuses})
     group by c.slug
    union all
    select 'article', slug, updated_at from blog_posts where published
    order by 1, 2`);
  return rows;
}
