/**
 * Admin catalogue writes. Every write clears this process's catalogue cache so the storefront shows the
 * change at once. Products are serialised with the catalogue's own serializer (one admin/public shape).
 */
import type { Db, DbOrTx } from '@nh/server/db/client';
import { auditDiff, recordAudit, type AuditActor } from '@nh/server/queries/audit';
import {
  categoryExists,
  deleteProductRow,
  existingProductSlugs,
  findProductWithCategory,
  insertProduct,
  kitsListing,
  listProductsWithCategory,
  lockProductSlug,
  renameInKits,
  updateProductRow,
  type ProductValues,
} from '@nh/server/queries/products';
import type { Product, ProductStatus } from '@nh/shared/contracts/catalog';
import { ADMIN_MESSAGES, type CreateProductFields, type UpdateProductFields } from '@nh/shared/contracts/admin';
import { AppError } from '../../../lib/errors';
import { toProduct } from '../../catalog/serialize';
import { FOREIGN_KEY_VIOLATION, pgErrorCode, UNIQUE_VIOLATION } from '../../../lib/db-errors';
import { ADMIN_PRODUCT_MESSAGES } from '@nh/shared/contracts/admin-products';
import { logInventoryChange } from './inventory';

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
  const { rows, total } = await listProductsWithCategory(db, query);
  return { products: rows.map((r) => toProduct(r.product, r.category)), total };
}

async function loadProduct(db: DbOrTx, id: number): Promise<Product> {
  const row = await findProductWithCategory(db, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
  return toProduct(row.product, row.category);
}

/** Kit contents must name other existing products. */
async function checkKitContents(tx: Tx, slug: string, kitContents: string[] | undefined): Promise<void> {
  if (!kitContents?.length) return;
  if (kitContents.includes(slug)) throw new AppError('KIT_CONTENTS_INVALID', ADMIN_MESSAGES.kitContainsItself, { fields: { kitContents: ADMIN_MESSAGES.kitContainsItself } });
  const known = await existingProductSlugs(tx, kitContents);
  const missing = kitContents.filter((s) => !known.has(s));
  if (missing.length) throw new AppError('KIT_CONTENTS_INVALID', ADMIN_MESSAGES.kitContentMissing, { fields: { kitContents: ADMIN_MESSAGES.kitContentMissing }, missing });
}

async function checkCategory(tx: Tx, categoryId: number | null | undefined): Promise<void> {
  if (categoryId === undefined || categoryId === null) return;
  if (!(await categoryExists(tx, categoryId))) throw new AppError('CATEGORY_MISSING', ADMIN_MESSAGES.categoryMissing, { fields: { categoryId: ADMIN_MESSAGES.categoryMissing } });
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
      const created = await loadProduct(tx, await insertProduct(tx, toValues(input) as ProductValues));
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
      const currentSlug = await lockProductSlug(tx, id);
      if (currentSlug === null) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
      const before = await loadProduct(tx, id);
      const slug = input.slug ?? currentSlug;
      await checkCategory(tx, input.categoryId);
      await checkKitContents(tx, slug, input.kitContents);
      await updateProductRow(tx, id, toValues(input));
      if (slug !== currentSlug) await renameInKits(tx, id, currentSlug, slug);
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
    const slug = await lockProductSlug(tx, id);
    if (slug === null) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.productNotFound);
    const kits = await kitsListing(tx, id, slug);
    if (kits.length) throw new AppError('PRODUCT_IN_KIT', ADMIN_MESSAGES.productInKit, { kits });
    const before = await loadProduct(tx, id);
    await deleteProductRow(tx, id);
    await recordAudit(tx, actor, { action: 'product.deleted', entityType: 'product', entityId: String(id), before: { ...before }, after: null });
    return { id, slug };
  });
  invalidateCatalog();
  return deleted;
}
