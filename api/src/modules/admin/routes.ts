import { Router } from 'express';
import {
  ADMIN_MESSAGES,
  adminOrderRequestSchema,
  adminOrdersRequestSchema,
  createProductSchema,
  createPromoCodeSchema,
  updateOrderSchema,
  updateProductSchema,
  verifyPasswordRequestSchema,
  type VerifyPasswordResponse,
} from '@nh/shared/contracts/admin';
import type { AppContext } from '../../context';
import { adminFailureLimiter, checkAdminCredential, issueAdminToken, requireAdmin } from '../../lib/admin-auth';
import { parseInput, pathId } from '../../lib/validation';
import { getOrder, listOrders, updateOrder } from './order-service';
import { createProduct, deleteProduct, listAllProducts, updateProduct } from './product-service';
import { createPromoCode, listPromoCodes, togglePromoCode } from './promo-service';

/**
 * The staff back office: password check, promo codes, products, orders. Every call is POST/PUT/PATCH/
 * DELETE with the admin password (or an admin token) in the JSON body; answers are never cached.
 */
export function adminRoutes(ctx: AppContext): Router {
  const router = Router();
  const admin = requireAdmin(ctx);
  router.use(['/admin', '/promo-codes', '/products'], (req, res, next) => {
    if (req.method !== 'GET') res.set('Cache-Control', 'no-store');
    next();
  });

  // ------------------------------------------------------------ password check
  /**
   * 200 {authenticated: true, token, expiresAt} for the password or a valid token; 401 {authenticated:
   * false} otherwise (a 401, so that wrong guesses count against the rate limit).
   */
  router.post('/admin/verify-password', adminFailureLimiter(ctx), (req, res) => {
    const { password } = parseInput(verifyPasswordRequestSchema, req.body);
    const credential = checkAdminCredential(ctx, password);
    if (!credential) {
      res.status(401).json({ authenticated: false, message: ADMIN_MESSAGES.invalidPassword });
      return;
    }
    res.locals.adminAuthenticated = true;
    // A token proves itself without being extended: its expiry stays absolute.
    const issued = credential.kind === 'token' ? { token: password, expiresAt: credential.expiresAt } : issueAdminToken(ctx);
    const body: VerifyPasswordResponse = { authenticated: true, token: issued.token, expiresAt: issued.expiresAt.toISOString() };
    res.json(body);
  });

  // ------------------------------------------------------------ promo codes
  router.post('/promo-codes/list', ...admin, async (_req, res) => {
    res.json(await listPromoCodes(ctx));
  });

  router.post('/promo-codes', ...admin, async (req, res) => {
    const { code, discountType, discountValue } = parseInput(createPromoCodeSchema, req.body);
    res.status(201).json(await createPromoCode(ctx, { code, discountType, discountValue }));
  });

  router.patch('/promo-codes/:id/toggle', ...admin, async (req, res) => {
    res.json(await togglePromoCode(ctx, pathId(req, ADMIN_MESSAGES.promoNotFound)));
  });

  // ------------------------------------------------------------ products
  router.post('/admin/products', ...admin, async (_req, res) => {
    res.json(await listAllProducts(ctx));
  });

  router.post('/products', ...admin, async (req, res) => {
    const { password: _password, ...fields } = parseInput(createProductSchema, req.body);
    res.status(201).json(await createProduct(ctx, fields));
  });

  router.put('/products/:id', ...admin, async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    const { password: _password, ...fields } = parseInput(updateProductSchema, req.body);
    res.json(await updateProduct(ctx, id, fields));
  });

  router.delete('/products/:id', ...admin, async (req, res) => {
    const id = pathId(req, ADMIN_MESSAGES.productIdInvalid);
    res.json({ deleted: true, ...(await deleteProduct(ctx, id)) });
  });

  // ------------------------------------------------------------ orders (export routes are registered earlier)
  router.post('/admin/orders', ...admin, async (req, res) => {
    const { storeCode, search, status, limit, offset } = parseInput(adminOrdersRequestSchema, req.body);
    const page = await listOrders(ctx, { storeCode, search: search || undefined, status, limit, offset });
    // The spec's answer is the list itself; paging facts travel in headers.
    res.set({ 'X-Total-Count': String(page.total), 'X-Limit': String(limit), 'X-Offset': String(offset) }).json(page.orders);
  });

  router.post('/admin/orders/:id', ...admin, async (req, res) => {
    const { storeCode } = parseInput(adminOrderRequestSchema, req.body);
    res.json(await getOrder(ctx, storeCode, String(req.params.id)));
  });

  router.patch('/admin/orders/:id', ...admin, async (req, res) => {
    const { storeCode, trackingNumber, carrier, status } = parseInput(updateOrderSchema, req.body);
    res.json(await updateOrder(ctx, storeCode, String(req.params.id), { trackingNumber, carrier, status }));
  });

  return router;
}

