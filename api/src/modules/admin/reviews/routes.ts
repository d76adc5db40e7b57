import { Router } from 'express';
import { ADMIN_REVIEW_MESSAGES, adminReviewsQuerySchema } from '@nh/shared/contracts/admin-reviews';
import type { AppContext } from '../../../lib/context';
import { actorOf } from '../../../lib/staff-auth';
import { parseInput, pathId } from '../../../lib/validation';
import type { AdminArea, AdminDeps } from '../shared/area';
import { deleteReview, listReviewsForModeration, setReviewHidden } from './service';

/** Review moderation at /admin/reviews: list, hide, show, delete. */
export function reviewArea(ctx: AppContext, { guard, invalidateCatalog }: AdminDeps): AdminArea[] {
  const router = Router();
  const moderate = guard.require('reviews.moderate');
  const { db } = ctx;

  router.get('/', moderate, async (req, res) => {
    res.json(await listReviewsForModeration(db, parseInput(adminReviewsQuerySchema, req.query)));
  });
  router.post('/:id/hide', moderate, async (req, res) => {
    const review = await setReviewHidden(db, pathId(req, ADMIN_REVIEW_MESSAGES.notFound), true, actorOf(req, res));
    invalidateCatalog();
    res.json(review);
  });
  router.post('/:id/show', moderate, async (req, res) => {
    const review = await setReviewHidden(db, pathId(req, ADMIN_REVIEW_MESSAGES.notFound), false, actorOf(req, res));
    invalidateCatalog();
    res.json(review);
  });
  router.delete('/:id', moderate, async (req, res) => {
    await deleteReview(db, pathId(req, ADMIN_REVIEW_MESSAGES.notFound), actorOf(req, res));
    invalidateCatalog();
    res.status(204).end();
  });

  return [{ path: '/admin/reviews', router }];
}
