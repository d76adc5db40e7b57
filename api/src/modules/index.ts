import type { Router } from 'express';
import type { AppContext } from '../context';

/**
 * Every API module, mounted under /api in this order. A module is a function of the app context that
 * returns an Express router (routes → service → repository inside its folder).
 */
export const apiModules: Array<(ctx: AppContext) => Router> = [];
