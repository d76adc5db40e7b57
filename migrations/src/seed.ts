// `npm run db:seed`: loads the demo catalogue (idempotent: existing rows are left alone).
import { createDb } from '@nh/shared/server';
import { seedDemoCatalogue } from '@nh/shared/server/seed/seed';
import { databaseUrlFromEnv, runScript } from './script';

await runScript('seed', async (log) => {
  const db = createDb({ url: databaseUrlFromEnv(), max: 2, applicationName: 'nurture-home-seed' });
  try {
    const result = await seedDemoCatalogue(db);
    log(result.seeded ? `demo catalogue loaded (${result.products} products)` : 'catalogue present, nothing to do');
  } finally {
    await db.$client.end();
  }
});
