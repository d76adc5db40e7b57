/**
 * The staff back office: one router for every admin sub-area. Each sub-area (a folder here: audit,
 * dashboard, exports, orders, products, promos, queues, reviews, staff, subscriptions, sync, customers) returns its
 * routers with the path each answers, and `mountAreas` mounts them most specific path first, so neither
 * the order below nor the order of the API's modules decides which route answers. Every call needs a
 * staff session (cookie) whose role has the route's permission; answers are never cached.
 *
 * Most paths are under /api/admin; the spec puts the promo-code and product writes at /api/promo-codes
 * and /api/products, so the area is mounted at /api.
 */
import { Router } from 'express';
import type { PaymentGateway } from '@nh/server/payments';
import type { FileStorage } from '@nh/server/storage';
import type { AppContext } from '../../lib/context';
import type { AfterAnswer } from '../../lib/after-answer';
import { createStaffGuard } from '../../lib/staff-auth';
import type { Reads } from '../../lib/read-your-writes';
import { mountAreas, type AdminArea, type AdminDeps } from './shared/area';
import { auditArea } from './audit/routes';
import { dashboardArea } from './dashboard/routes';
import { reportArea } from './reports/routes';
import { exportArea } from './exports/routes';
import { orderArea } from './orders/routes';
import { productArea } from './products/routes';
import { promoArea } from './promos/routes';
import { reviewArea } from './reviews/routes';
import { staffArea } from './staff/routes';
import { subscriptionArea } from './subscriptions/routes';
import { bulkSwapArea } from './subscriptions/bulk-swap-routes';
import { subscriptionExportArea } from './exports/subscription-export-routes';
import { syncArea } from './sync/routes';
import { customerArea } from './customers/routes';
import { creditArea } from './credit/routes';
import { claimArea } from './claims/routes';

export interface AdminModuleDeps {
  /** Clears the catalogue's in-process caches (a product written, an order's stock moved). */
  invalidateCatalog: () => void;
  /** The payment gateway, for refunds and voids (null when card payments are not configured). */
  gateway: PaymentGateway | null;
  /** Where the export files are (written by the exports worker, downloaded here). */
  exportFiles: FileStorage;
  /** The private store of damage claims' photos. */
  claimPhotos: FileStorage;
  /** Work a request answers before it is done (staff password reset requests). */
  afterAnswer: AfterAnswer;
  /** Where the lists and reports read (the replica, or the primary for a staff member who just changed something). */
  reads: Reads;
}

/** Every sub-area of the back office, in no particular order. */
export function adminAreas(ctx: AppContext, deps: AdminDeps): AdminArea[] {
  return [staffArea, auditArea, dashboardArea, promoArea, productArea, reviewArea, orderArea, exportArea, syncArea, subscriptionArea, bulkSwapArea, subscriptionExportArea, reportArea, customerArea, creditArea, claimArea].flatMap((area) => area(ctx, deps));
}

export function adminRoutes(ctx: AppContext, { invalidateCatalog, gateway, exportFiles, claimPhotos, afterAnswer, reads }: AdminModuleDeps): Router {
  const deps: AdminDeps = { guard: createStaffGuard(ctx), invalidateCatalog, gateway, exportFiles, claimPhotos, afterAnswer, reads };
  const router = Router();
  router.use(['/admin', '/promo-codes', '/products'], (req, res, next) => {
    // Admin answers are never cached; the catalogue's public GETs of /products keep their own policy.
    // The mount path as the request spelt it: Express matches /aPi/AdMiN too.
    if (req.method !== 'GET' || /\/admin$/i.test(req.baseUrl)) res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(mountAreas(adminAreas(ctx, deps)));
  return router;
}
