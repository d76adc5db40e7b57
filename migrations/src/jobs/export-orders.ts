/**
 * export-orders (exports queue): all orders of a store to a CSV file, for the `export.requested` row
 * the admin API writes. One attempt: a failure is reported and staff start a new export. The handler
 * is workers/src/exports/processor.ts.
 */
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { defineJobContract } from './contract';

export const exportOrdersContract = defineJobContract({
  name: 'export-orders',
  queue: 'exports',
  payload: z.object({ exportId: z.string().uuid() }),
  options: () => ({ attempts: 1 }),
  topics: {
    [OUTBOX_TOPICS.exportRequested]: ({ exportId }) => ({ exportId }),
  },
});
