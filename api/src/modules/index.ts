import type { Router } from 'express';
import type { AppContext } from '../context';
import { authRoutes } from './auth';
import { catalogRoutes } from './catalog';
import { newsletterRoutes } from './newsletter/routes';
import { paymentRoutes } from './payments/routes';
import { promoValidationRoutes } from './promo/routes';
import { reviewRoutes } from './reviews/routes';

/**
 * Every API module, mounted under /api in this order. A module is a function of the app context that
 * returns an Express router (routes → service → repository inside its folder).
 */
export const apiModules: Array<(ctx: AppContext) => Router> = [
  catalogRoutes,
  reviewRoutes,
  newsletterRoutes,
  authRoutes,
  promoValidationRoutes,
  paymentRoutes,
];
