import { Router } from 'express';
import { ADMIN_MESSAGES, createProductSchema, updateProductSchema } from '@nh/shared/contracts/admin';
import type { AppContext } from '../../../context';
import { parseInput, pathId } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../area';
import { createProduct, deleteProduct, listAllProducts, updateProduct } from './service';

/**
 * The catalogue's products: the full list at /admin/products, and the writes at /products and
 * /products/{id}, where the spec puts them (the public catalogue reads of those paths are GETs).
 */
export function productArea(ctx: AppContext, { guard, invalidateCatalog }: AdminDeps): AdminArea[] {
  const admin = guard.requireAdmin;
  const deps = { db: ctx.db, invalidateCatalog };

  const list = Router();
  list.post('/', ...admin, async (_req, res) => {
    res.json(await listAllProducts(ctx.db));
  });

  const writes = Router();
  writes.post('/', ...admin, async (req, res) => {
    const { password: _password, ...fields } = parseInput(createProductSchema, req.body);
    res.status(201).json(await createProduct(deps, fields));
  });

  writes.put('/:id', ...admin, async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    const { password: _password, ...fields } = parseInput(updateProductSchema, req.body);
    res.json(await updateProduct(deps, id, fields));
  });

  writes.delete('/:id', ...admin, async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    res.json({ deleted: true, ...(await deleteProduct(deps, id)) });
  });

  return [
    { path: '/admin/products', router: list },
    { path: '/products', router: writes },
  ];
}
