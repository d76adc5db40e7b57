import { Router } from 'express';
import { ADMIN_MESSAGES, createProductSchema, updateProductSchema } from '@nh/shared/contracts/admin';
import { adminProductsRequestSchema, inventoryAdjustmentRequestSchema } from '@nh/shared/contracts/admin-products';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput, pathId } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { adjustInventory, inventoryLog } from './inventory';
import { createProduct, deleteProduct, listAllProducts, updateProduct } from './service';

/**
 * The catalogue's products: the full list at /admin/products, and the writes at /products and
 * /products/{id}, where the spec puts them (the public catalogue reads of those paths are GETs).
 */
export function productArea(ctx: AppContext, { guard, invalidateCatalog, reads }: AdminDeps): AdminArea[] {
  const deps = { db: ctx.db, invalidateCatalog };

  const list = Router();
  list.post('/', guard.require('catalog.manage'), async (req, res) => {
    const query = parseInput(adminProductsRequestSchema, req.body ?? {});
    const page = await reads.read(req, res, (db) => listAllProducts(db, { ...query, search: query.search || undefined }));
    // The spec's answer is the list itself; paging facts travel in headers.
    res.set({ 'X-Total-Count': String(page.total) }).json(page.products);
  });

  list.get('/:id/inventory', guard.require('catalog.manage'), async (req, res) => {
    res.json(await inventoryLog(ctx.db, pathId(req, ADMIN_MESSAGES.productIdInvalid)));
  });

  list.post('/:id/inventory', guard.require('catalog.manage'), async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    const { delta, reason } = parseInput(inventoryAdjustmentRequestSchema, req.body);
    const log = await adjustInventory(ctx.db, id, delta, reason, actorOf(req, res));
    invalidateCatalog();
    res.json(log);
  });

  const writes = Router();
  writes.post('/', guard.require('catalog.manage'), async (req, res) => {
    res.status(201).json(await createProduct(deps, parseInput(createProductSchema, req.body), actorOf(req, res)));
  });

  writes.put('/:id', guard.require('catalog.manage'), async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    res.json(await updateProduct(deps, id, parseInput(updateProductSchema, req.body), actorOf(req, res)));
  });

  writes.delete('/:id', guard.require('catalog.manage'), async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    res.json({ deleted: true, ...(await deleteProduct(deps, id, actorOf(req, res))) });
  });

  return [
    { path: '/admin/products', router: list },
    { path: '/products', router: writes },
  ];
}
