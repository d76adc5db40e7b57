/**
 * Admin catalogue writes. Every write clears this process's catalogue cache so the storefront shows the
 * change at once. Products are serialised with the catalogue's own serializer (one admin/public shape).
 */
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { auditDiff, recordAudit, tables, type AuditActor, type Db, type DbOrTx } from '@nh/server';
import type { Product, ProductStatus } from '@nh/shared/contracts/catalog';
import { ADMIN_MESSAGES, type CreateProductFields, type UpdateProductFields } from '@nh/shared/contracts/admin';
import { AppError } from '../../../lib/errors';
import { toProduct } from '../../catalog/serialize';
import { FOREIGN_KEY_VIOLATION, pgErrorCode, UNIQUE_VIOLATION } from '../shared/db-errors';
import { ADMIN_PRODUCT_MESSAGES } from '@nh/shared/contracts/admin-products';
import { logInventoryChange } from './inventory';

const { products, categories } = tables;
const categoryRef = { id: categories.id, name: categories.name, slug: categories.slug };
type Tx = DbOrTx;
type ProductFields = UpdateProductFields;

/** What a catalogue write uses: the database, and the catalogue caches to clear after it. */
export interface ProductWriteDeps {
  db: Db;
  invalidateCatalog: () => void;
}

/**
 * Products, inactive ones included, by name: every one (the spec's list), or a page of those matching a
 * search (name, slug or SKU, any case) and a status, with how many match.
 */
export async function listAllProducts(db: Db, query: { search?: string; status?: ProductStatus; limit?: number; offset?: number } = {}): Promise<{ products: Product[]; total: number }> {
  const like = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
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
  return { products: rows.map((r) => toProduct(r.product, r.category)), total: counted?.n ?? 0 };
}

async function loadProduct(db: DbOrTx, id: number): Promise<Product> {
  const [row] = await db
    .select({ product: products, category: categoryRef })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(eq(products.id, id));
  if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
  return toProduct(row.product, row.category);
}

/** Kit contents must name other existing products. */
async function checkKitContents(tx: Tx, slug: string, kitContents: string[] | undefined): Promise<void> {
  if (!kitContents?.length) return;
  if (kitContents.includes(slug)) throw new AppError('KIT_CONTENTS_INVALID', ADMIN_MESSAGES.kitContainsItself, { fields: { kitContents: ADMIN_MESSAGES.kitContainsItself } });
  const found = await tx.select({ slug: products.slug }).from(products).where(inArray(products.slug, kitContents));
  const known = new Set(found.map((r) => r.slug));
  const missing = kitContents.filter((s) => !known.has(s));
  if (missing.length) throw new AppError('KIT_CONTENTS_INVALID', ADMIN_MESSAGES.kitContentMissing, { fields: { kitContents: ADMIN_MESSAGES.kitContentMissing }, missing });
}

async function checkCategory(tx: Tx, categoryId: number | null | undefined): Promise<void> {
  if (categoryId === undefined || categoryId === null) return;
  const [row] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId));
  if (!row) throw new AppError('CATEGORY_MISSING', ADMIN_MESSAGES.categoryMissing, { fields: { categoryId: ADMIN_MESSAGES.categoryMissing } });
}

/** The table's values from parsed fields; `isStarterKit` follows kitContents when not given. */
function toValues(fields: ProductFields) {
  const values = { ...fields, updatedAt: new Date() };
  if (values.isStarterKit === undefined && values.kitContents !== undefined) values.isStarterKit = values.kitContents.length > 0;
  return values;
}

function mapWriteError(error: unknown): never {
  const code = pgErrorCode(error);
  if (code === UNIQUE_VIOLATION) throw new AppError('SLUG_TAKEN', ADMIN_MESSAGES.slugTaken, { fields: { slug: ADMIN_MESSAGES.slugTaken } });
  if (code === FOREIGN_KEY_VIOLATION) throw new AppError('CATEGORY_MISSING', ADMIN_MESSAGES.categoryMissing, { fields: { categoryId: ADMIN_MESSAGES.categoryMissing } });
  throw error;
}

export async function createProduct({ db, invalidateCatalog }: ProductWriteDeps, input: CreateProductFields, actor: AuditActor): Promise<Product> {
  try {
    const product = await db.transaction(async (tx) => {
      await checkCategory(tx, input.categoryId);
      await checkKitContents(tx, input.slug, input.kitContents);
      const [row] = await tx.insert(products).values(toValues(input) as typeof products.$inferInsert).returning({ id: products.id });
      const created = await loadProduct(tx, row!.id);
      await recordAudit(tx, actor, { action: 'product.created', entityType: 'product', entityId: String(created.id), before: null, after: { ...created } });
      return created;
    });
    invalidateCatalog();
    return product;
  } catch (error) {
    return mapWriteError(error);
  }
}

/** Updates the fields sent. A renamed slug is renamed in every kit that lists it, in the same transaction. */
export async function updateProduct({ db, invalidateCatalog }: ProductWriteDeps, id: number, input: ProductFields, actor: AuditActor): Promise<Product> {
  try {
    const product = await db.transaction(async (tx) => {
      const [current] = await tx.select({ slug: products.slug }).from(products).where(eq(products.id, id)).for('update');
      if (!current) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
      const before = await loadProduct(tx, id);
      const slug = input.slug ?? current.slug;
      await checkCategory(tx, input.categoryId);
      await checkKitContents(tx, slug, input.kitContents);
      await tx.update(products).set(toValues(input)).where(eq(products.id, id));
      if (slug !== current.slug) {
        await tx
          .update(products)
          .set({ kitContents: sql`array_replace(${products.kitContents}, ${current.slug}, ${slug})` })
          .where(and(ne(products.id, id), sql`${current.slug} = any(${products.kitContents})`));
      }
      const after = await loadProduct(tx, id);
      await logInventoryChange(tx, actor, { productId: id, before: before.inventory, after: after.inventory, reason: ADMIN_PRODUCT_MESSAGES.formReason });
      const change = auditDiff({ ...before }, { ...after });
      if (change) await recordAudit(tx, actor, { action: 'product.updated', entityType: 'product', entityId: String(id), ...change });
      return after;
    });
    invalidateCatalog();
    return product;
  } catch (error) {
    return mapWriteError(error);
  }
}

/**
 * Deletes a product. Orders keep their own line snapshots (name, price, SKU), so they are unaffected;
 * the product's reviews go with it (cascade). A product still listed in a starter kit is refused (409),
 * so no kit silently loses an item.
 */
export async function deleteProduct({ db, invalidateCatalog }: ProductWriteDeps, id: number, actor: AuditActor): Promise<{ id: number; slug: string }> {
  const deleted = await db.transaction(async (tx) => {
    const [current] = await tx.select({ slug: products.slug }).from(products).where(eq(products.id, id)).for('update');
    if (!current) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
    const kits = await tx
      .select({ slug: products.slug })
      .from(products)
      .where(and(ne(products.id, id), sql`${current.slug} = any(${products.kitContents})`));
    if (kits.length) throw new AppError('PRODUCT_IN_KIT', ADMIN_MESSAGES.productInKit, { kits: kits.map((k) => k.slug) });
    const before = await loadProduct(tx, id);
    await tx.delete(products).where(eq(products.id, id));
    await recordAudit(tx, actor, { action: 'product.deleted', entityType: 'product', entityId: String(id), before: { ...before }, after: null });
    return { id, slug: current.slug };
  });
  invalidateCatalog();
  return deleted;
}
