import { Router } from 'express';
import type { Queue } from 'bullmq';
import { STORE_CODE } from '@nh/shared/constants';
import type { QueueName } from '@nh/server/runtime/queues';
import type { AppContext } from '../../../lib/context';
import type { AdminArea, AdminDeps } from '../shared/area';
import { lazyQueue } from '../sync/queue';
import { dashboard } from './service';

/** GET /api/admin/dashboard: every staff member's first screen. */
export function dashboardArea(ctx: AppContext, { guard }: AdminDeps): AdminArea[] {
  const queues = new Map<QueueName, () => Queue>();
  const queue = (name: QueueName) => {
    let get = queues.get(name);
    if (!get) queues.set(name, (get = lazyQueue(ctx, name)));
    return get();
  };
  const router = Router();
  router.get('/', guard.require('dashboard.view'), async (_req, res) => {
    res.json(await dashboard({ db: ctx.db, queue }, STORE_CODE));
  });
  return [{ path: '/admin/dashboard', router }];
}
