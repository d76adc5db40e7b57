/**
 * The composition root of the API's modules. A module is a function `(ctx, deps) => Router`: `ctx` is
 * the infrastructure bag (config, database, Redis, logger), `deps` are the services other modules
 * provide, each made once here and handed to every module that uses it. A module imports another
 * module's types and pure functions only, never an instance (no singletons, no `perApp` lookups across
 * modules), and no module imports this file. Routes never depend on the order below: each path
 * belongs to one module (the admin area orders its own sub-areas).
 */
import { emailActionRoutes } from './email-actions/routes';
import type { Router } from 'express';
import { API_METRICS, createMetricsRegistry, type Registry } from '@nh/server/observability/metrics';
import { createFileStores, type FileStorage } from '@nh/server/storage';
import { createTaxCalculator, type TaxCalculator } from '@nh/server/tax';
import type { AppContext } from '../lib/context';
import { createAfterAnswer, type AfterAnswer } from '../lib/after-answer';
import { createReads, type Reads } from '../lib/read-your-writes';
import { cardTestingGuard } from '../lib/card-testing-guard';
import { accountRoutes } from './account/routes';
import { createGuestAccess, type GuestAccess } from '../lib/guest-access';
import { claimRoutes } from './claims/routes';
import { claimPhotoUploadRoutes } from './claims/photo-routes';
import { adminRoutes } from './admin';
import { productImageUploadRoutes } from './admin/products/images';
import { QUEUE_BOARD_PATH, queueBoardRoutes } from './admin/queues/board';
import { authRoutes } from './auth';
import { emailCodeRoutes } from './auth/email-code';
import { invalidateCatalogCache, priceList } from './catalog';
import type { Lifecycle } from './health/routes';
import { replicaLagGauge } from './health/replica-lag';
import { checkoutRoutes } from './checkout/routes';
import { newsletterRoutes } from './newsletter/routes';
import { newsletterUnsubscribeRoutes } from './newsletter/unsubscribe-routes';
import { createPayments, type Payments } from './payments/provider';
import { paymentRoutes } from './payments/routes';
import { promoGuessLimit } from './promo/guess-limit';
import { promoValidationRoutes } from './promo/routes';
import { reviewRoutes } from './reviews/routes';
import { seoRoutes } from './seo/routes';
import { subscriptionRoutes } from './subscriptions/routes';

/** What the process's composition root (main.ts) makes before the app, because it reports on it too. */
export interface AppServices {
  /** The payment gateway chosen from configuration, and what the browser is told of it. */
  payments: Payments;
  /** Draining or not: /readyz answers 503 while the process shuts down. */
  lifecycle: Lifecycle;
  /** The process's Prometheus registry (the default process metrics and the API's own). */
  metrics: Registry;
  /**
   * Where product pictures, export files and claim photos live (the local folders, or the S3 bucket of
   * STORAGE_URL; pictures and exports shared with the workers). Only `uploads` is served publicly.
   */
  files: { uploads: FileStorage; exports: FileStorage; claims: FileStorage };
  /** Work requests answer before it is done (reset requests, order lookups); the drain waits for it. */
  afterAnswer: AfterAnswer;
  /** Where reads that may lag go (the replica of DATABASE_READ_URL), and the read-your-writes mark. */
  reads: Reads;
  /** Sales tax by destination, as TAX_MODE says (issue 25): checkout, its summary's quote, plan changes. */
  tax: TaxCalculator;
  /** Which orders a guest's browser may read for its hour (the confirmation page, an emailed order link). */
  guestAccess: GuestAccess;
}

function apiMetrics(ctx: AppContext): Registry {
  const registry = createMetricsRegistry(API_METRICS);
  if (ctx.readDb !== ctx.db) registry.registerMetric(replicaLagGauge(ctx.readDb));
  return registry;
}

export const createAppServices = (ctx: AppContext): AppServices => ({
  payments: createPayments(ctx),
  lifecycle: { draining: false },
  metrics: apiMetrics(ctx),
  files: createFileStores(ctx.config, { uploads: ctx.config.UPLOADS_DIR, exports: ctx.config.EXPORTS_DIR, claims: ctx.config.CLAIM_PHOTOS_DIR }),
  afterAnswer: createAfterAnswer(),
  reads: createReads({ primary: ctx.db, replica: ctx.readDb, log: ctx.log }, ctx.config),
  tax: createTaxCalculator(ctx.config, { log: ctx.log }),
  guestAccess: createGuestAccess(ctx.config),
});

/**
 * Every API module's router, mounted under /api (the public catalogue reads are mounted earlier, in
 * app.ts, ahead of body parsing and sessions).
 */
export function apiModules(ctx: AppContext, { payments, files, afterAnswer, reads, tax, guestAccess }: AppServices): Router[] {
  const promoGuesses = promoGuessLimit(ctx);
  const cardGuard = cardTestingGuard(ctx);
  const invalidateCatalog = () => invalidateCatalogCache(ctx);
  return [
    adminRoutes(ctx, { invalidateCatalog, gateway: payments.gateway, exportFiles: files.exports, claimPhotos: files.claims, afterAnswer, reads }),
    reviewRoutes(ctx, { invalidateCatalog }),
    newsletterRoutes(ctx),
    authRoutes(ctx),
    emailCodeRoutes(ctx, { afterAnswer }),
    accountRoutes(ctx, { afterAnswer, guestAccess }),
    claimRoutes(ctx, { photos: files.claims, guestAccess }),
    promoValidationRoutes(ctx, { promoGuesses }),
    paymentRoutes(ctx, { payments }),
    checkoutRoutes(ctx, { payments, priceList: priceList(ctx), promoGuesses, cardTestingGuard: cardGuard, tax, guestAccess }),
    subscriptionRoutes(ctx, { gateway: payments.gateway, cardTestingGuard: cardGuard, catalogue: (ids) => priceList(ctx).get(ids, { fresh: true }), tax }),
    emailActionRoutes(ctx),
  ];
}

/**
 * Modules mounted under /api ahead of the JSON-only rule, body parsing and sessions: their routes take
 * a form body from outside the shop's pages and need no session (RFC 8058 one-click unsubscribe).
 */
/** Routes whose body is not JSON, mounted ahead of the JSON-only rule: the one-click unsubscribe (a form), product picture and claim photo uploads (bytes). */
export const formBodyModules = (ctx: AppContext, { files, guestAccess }: AppServices): Router[] => [
  newsletterUnsubscribeRoutes(ctx),
  productImageUploadRoutes(ctx, { pictures: files.uploads }),
  claimPhotoUploadRoutes(ctx, { photos: files.claims, guestAccess }),
];

/** Pages served by the API outside /api, before the SPA: the queue dashboard (bull-board) at /admin/queues, robots.txt and sitemap.xml. */
export const pageModules = (ctx: AppContext): Array<{ path: string; router: Router }> => [
  { path: QUEUE_BOARD_PATH, router: queueBoardRoutes(ctx) },
  { path: '/', router: seoRoutes(ctx) },
];
