import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import { NEWSLETTER_MESSAGES, newsletterRequestSchema, type NewsletterResponse } from '@nh/shared/contracts/newsletter';
import type { AppContext } from '../../context';
import { tooManyRequests } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { subscribe } from './service';

export function newsletterRoutes(ctx: AppContext): Router {
  const router = Router();
  // Sign-ups send email: cap them per client address so the form cannot be used to spam people.
  const limiter = rateLimit({
    windowMs: 60 * 60 * 1000,
    limit: 30,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(tooManyRequests('Too many sign-ups from this address. Please try again later.')),
  });

  router.post('/newsletter', limiter, async (req, res) => {
    const { email } = parseInput(newsletterRequestSchema, req.body ?? {});
    const { alreadySubscribed } = await subscribe(ctx.db, email);
    const body: NewsletterResponse = { message: NEWSLETTER_MESSAGES.subscribed, alreadySubscribed };
    res.status(alreadySubscribed ? 200 : 201).json(body);
  });

  return router;
}
