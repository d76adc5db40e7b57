/**
 * The back office's catalogue: products read and written by staff (inactive ones too), the kit checks
 * and kit renames that keep starter kits whole, and stock changed by hand with its log
 * (inventory_adjustments). The storefront's reads are catalog.ts.
 */
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { ProductStatus } from '@nh/shared/contracts/catalog';
import type { Db, DbOrTx } from '../db/client';
import { categories, inventoryAdjustments, products } from '../db/schema';
import { escapeLike } from './search';

export type ProductRow = typeof products.$inferSelect;
export type ProductValues = typeof products.$inferInsert;
export type InventoryAdjustmentRow = typeof inventoryAdjustments.$inferSelect;

const categoryRef = { id: categories.id, name: categories.name, slug: categories.slug };

/** A product with the category it is filed under (null without one). */
export interface ProductWithCategory {
  product: ProductRow;
  category: { id: number; name: string; slug: string } | null;
}

/**
 * Products by name: every one, or a page of those matching a search (name, slug or SKU, any case) and a
 * status, with how many match.
 */
export async function listProductsWithCategory(
  db: Db,
  query: { search?: string; status?: ProductStatus; limit?: number; offset?: number },
): Promise<{ rows: ProductWithCategory[]; total: number }> {
  const like = query.search ? `%${escapeLike(query.search)}%` : undefined;
  const where = and(
    like ? or(ilike(products.name, like), ilike(products.slug, like), ilike(products.sku, like)) : undefined,
    query.status ? eq(products.status, query.status) : undefined,
  );
  const page = db
    .select({ product: products, category: categoryRef })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(where)
    .orderBy(asc(products.name), asc(products.id))
    .offset(query.offset ?? 0);
  const [rows, [counted]] = await Promise.all([query.limit === undefined ? page : page.limit(query.limit), db.select({ n: count() }).from(products).where(where)]);
  return { rows, total: counted?.n ?? 0 };
}

export async function findProductWithCategory(db: DbOrTx, id: number): Promise<ProductWithCategory | null> {
  const [row] = await db
    .select({ product: products, category: categoryRef })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(eq(products.id, id));
  return row ?? null;
}

/** Which of these slugs name a product. */
export async function existingProductSlugs(db: DbOrTx, slugs: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ slug: products.slug })
    .from(products)
    .where(inArray(products.slug, [...slugs]));
  return new Set(rows.map((r) => r.slug));
}

export async function categoryExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
  return row !== undefined;
}

/** A new product's id; a slug already taken fails with the unique violation (23505), an unknown category with 23503. */
export async function insertProduct(tx: DbOrTx, values: ProductValues): Promise<number> {
  const [row] = await tx.insert(products).values(values).returning({ id: products.id });
  return row!.id;
}

/** The product's slug, its row locked for a change; null for an unknown id. */
export async function lockProductSlug(tx: DbOrTx, id: number): Promise<string | null> {
  const [row] = await tx.select({ slug: products.slug }).from(products).where(eq(products.id, id)).for('update');
  return row?.slug ?? null;
}

export async function updateProductRow(tx: DbOrTx, id: number, values: Partial<ProductValues>): Promise<void> {
  await tx.update(products).set(values).where(eq(products.id, id));
}

/** A product in the kits of other products, by slug. */
const listedInKits = (id: number, slug: string) => and(ne(products.id, id), sql`${slug} = any(${products.kitContents})`);

/** Renames a slug in every other product's kit contents. */
export async function renameInKits(tx: DbOrTx, id: number, from: string, to: string): Promise<void> {
  await tx
    .update(products)
    .set({ kitContents: sql`array_replace(${products.kitContents}, ${from}, ${to})` })
    .where(listedInKits(id, from));
}

/** The slugs of the other products whose kit lists this product's slug. */
export async function kitsListing(db: DbOrTx, id: number, slug: string): Promise<string[]> {
  const rows = await db.select({ slug: products.slug }).from(products).where(listedInKits(id, slug));
  return rows.map((r) => r.slug);
}

export async function deleteProductRow(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(products).where(eq(products.id, id));
}

// ---------------------------------------------------------------- stock by hand
/** The product's stock, its row locked for a change (a checkout taking stock waits); null for an unknown id. */
export async function lockProductInventory(tx: DbOrTx, id: number): Promise<number | null> {
  const [row] = await tx.select({ inventory: products.inventory }).from(products).where(eq(products.id, id)).for('update');
  return row?.inventory ?? null;
}

export async function setProductInventory(tx: DbOrTx, id: number, inventory: number): Promise<void> {
  await tx
    .update(products)
    .set({ inventory, updatedAt: sql`now()` })
    .where(eq(products.id, id));
}

export async function insertInventoryAdjustment(
  tx: DbOrTx,
  values: { productId: number; delta: number; inventoryAfter: number; reason: string; staffId: string | null; staffEmail: string },
): Promise<void> {
  await tx.insert(inventoryAdjustments).values(values);
}

/** The product's stock now; null for an unknown id. */
export async function productInventory(db: DbOrTx, id: number): Promise<number | null> {
  const [row] = await db.select({ inventory: products.inventory }).from(products).where(eq(products.id, id));
  return row?.inventory ?? null;
}

/** The product's last `limit` adjustments, newest first. */
export async function listInventoryAdjustments(db: DbOrTx, productId: number, limit: number): Promise<InventoryAdjustmentRow[]> {
  return db.select().from(inventoryAdjustments).where(eq(inventoryAdjustments.productId, productId)).orderBy(desc(inventoryAdjustments.id)).limit(limit);
}
