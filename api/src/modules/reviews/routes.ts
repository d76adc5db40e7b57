import { Router, type Request } from 'express';
import { CATALOG_MESSAGES } from '@nh/shared/contracts/catalog';
import { createReviewRequestSchema, REVIEW_MESSAGES } from '@nh/shared/contracts/reviews';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { createLimiter } from '../../lib/rate-limit';
import { parseInput, pathId } from '../../lib/validation';
import { listReviews, submitReview } from './service';

/** `{id}` of the path, by the shared id rule; else 400. */
const productIdOf = (req: Request): number => pathId(req, CATALOG_MESSAGES.badProductId);

export interface ReviewModuleDeps {
  /** A new review changes its product's rating in the catalogue's answers (the product list's cards too). */
  invalidateCatalog: () => void;
}

export function reviewRoutes(ctx: AppContext, { invalidateCatalog }: ReviewModuleDeps): Router {
  const router = Router();
  // Reviews are public at once: cap stored reviews per client address against spam (refused ones do
  // not count, so a visitor correcting the form is never blocked).
  const limiter = createLimiter(ctx, {
    name: 'reviews',
    windowMs: 60 * 60 * 1000,
    limit: 20,
    count: 'successes',
    message: 'Too many reviews from this address. Please try again later.',
  }).middleware;

  router.get('/products/:id/reviews', async (req, res) => {
    const reviews = await listReviews(ctx.db, productIdOf(req));
    if (!reviews) throw new AppError('NOT_FOUND', CATALOG_MESSAGES.productNotFound);
    res.setHeader('Cache-Control', 'no-cache');
    res.json(reviews);
  });

  router.post('/products/:id/reviews', limiter, async (req, res) => {
    const productId = productIdOf(req);
    const input = parseInput(createReviewRequestSchema, req.body ?? {});
    if (input.productId !== undefined && input.productId !== productId) throw new AppError('VALIDATION_FAILED', REVIEW_MESSAGES.productMismatch);
    const review = await submitReview(ctx.db, productId, input);
    if (!review) throw new AppError('NOT_FOUND', CATALOG_MESSAGES.productNotFound);
    invalidateCatalog();
    res.status(201).json(review);
  });

  return router;
}
