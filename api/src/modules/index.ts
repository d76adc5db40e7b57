import type { Router } from 'express';
import type { AppContext } from '../context';
import { adminExportRoutes } from './admin-exports/routes';
import { adminRoutes } from './admin/routes';
import { adminSyncRoutes } from './admin-sync/routes';
import { authRoutes } from './auth';
import { newsletterRoutes } from './newsletter/routes';
import { newsletterUnsubscribeRoutes } from './newsletter/unsubscribe-routes';
import { paymentRoutes } from './payments/routes';
import { promoValidationRoutes } from './promo/routes';
import { reviewRoutes } from './reviews/routes';
import { subscriptionRoutes } from './subscriptions/routes';

/**
 * Every API module, mounted under /api in this order (the public catalogue reads are mounted earlier,
 * in app.ts, ahead of body parsing and sessions). A module is a function of the app context that
 * returns an Express router (routes → service → repository inside its folder).
 */
export const apiModules: Array<(ctx: AppContext) => Router> = [
  // Before any /admin/orders/:id route, so /admin/orders/export is never read as an order id.
  adminExportRoutes,
  adminSyncRoutes,
  // Admin promo codes, products, orders (its /admin/orders/:id routes come after the export routes above).
  adminRoutes,
  reviewRoutes,
  newsletterRoutes,
  authRoutes,
  promoValidationRoutes,
  paymentRoutes,
  subscriptionRoutes,
];

/**
 * Modules mounted under /api ahead of the JSON-only rule, body parsing and sessions: their routes take
 * a form body from outside the shop's pages and need no session (RFC 8058 one-click unsubscribe).
 */
export const formBodyModules: Array<(ctx: AppContext) => Router> = [newsletterUnsubscribeRoutes];
