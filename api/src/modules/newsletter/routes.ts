import { Router } from 'express';
import { NEWSLETTER_MESSAGES, newsletterRequestSchema, type NewsletterResponse } from '@nh/shared/contracts/newsletter';
import type { AppContext } from '../../lib/context';
import { createLimiter } from '../../lib/rate-limit';
import { parseInput } from '../../lib/validation';
import { subscribe } from './service';

export function newsletterRoutes(ctx: AppContext): Router {
  const router = Router();
  // Sign-ups send email: cap them per client address so the form cannot be used to spam people.
  const limiter = createLimiter(ctx, {
    name: 'newsletter',
    windowMs: 60 * 60 * 1000,
    limit: 30,
    message: 'Too many sign-ups from this address. Please try again later.',
  }).middleware;

  router.post('/newsletter', limiter, async (req, res) => {
    const { email } = parseInput(newsletterRequestSchema, req.body ?? {});
    const { alreadySubscribed } = await subscribe(ctx.db, email);
    const body: NewsletterResponse = { message: NEWSLETTER_MESSAGES.subscribed, alreadySubscribed };
    res.status(alreadySubscribed ? 200 : 201).json(body);
  });

  return router;
}
