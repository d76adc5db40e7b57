import { Router } from 'express';
import type { PaymentGateway } from '@nh/server/payments';
import type { FileStorage } from '@nh/server/storage';
import type { AfterAnswer } from '../../../lib/after-answer';
import type { StaffGuard } from '../../../lib/staff-auth';
import type { Reads } from '../../../lib/read-your-writes';

/** One sub-area's router and the path under /api it answers (e.g. `/admin/orders`). */
export interface AdminArea {
  path: string;
  router: Router;
}

/** What every admin sub-area gets from the admin area (made once per app). */
export interface AdminDeps {
  /** The staff session and role check: `guard.require(permission)` on every route. */
  guard: StaffGuard;
  /** Clears the catalogue's in-process caches after a write to products or stock. */
  invalidateCatalog: () => void;
  /** The payment gateway (refunds and voids); null when card payments are not configured. */
  gateway: PaymentGateway | null;
  /** Where the export files are (written by the exports worker, downloaded through the API). */
  exportFiles: FileStorage;
  /** The private store of damage claims' photos (read by staff through the API only). */
  claimPhotos: FileStorage;
  /** Work a request answers before it is done (a reset request: its answer must not tell, by its time, whether the address has an account). */
  afterAnswer: AfterAnswer;
  /** `reads.read(req, res, (db) => …)`: the database of the lists and reports (DATABASE_READ_URL's replica, or the primary for a staff member who just changed something). */
  reads: Reads;
}

const depth = (path: string) => path.split('/').filter(Boolean).length;

/**
 * One router for the given sub-areas, each mounted at its own path, the most specific path first
 * (`/admin/orders/export` before `/admin/orders`, whose `/:id` would otherwise read "export" as an order
 * id). The order the areas are listed in therefore does not matter.
 */
export function mountAreas(areas: readonly AdminArea[]): Router {
  const router = Router();
  const sorted = areas.map((area, i) => ({ area, i })).sort((a, b) => depth(b.area.path) - depth(a.area.path) || a.i - b.i);
  for (const { area } of sorted) router.use(area.path, area.router);
  return router;
}
