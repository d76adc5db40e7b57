// `npm run db:seed` and the release step: loads the demo catalogue (idempotent: existing rows are left
// alone), except into a production database (see seed-policy.ts).
import { createDb } from './db/client';
import { seedDemoCatalogue } from './seed/seed';
import { databaseUrlFromEnv, runScript } from './runtime/script';
import { demoSeedDecision } from './seed/policy';

await runScript('seed', async (log) => {
  const decision = demoSeedDecision(process.env);
  if (!decision.seed) {
    log(decision.reason);
    return;
  }
  const db = createDb({ url: databaseUrlFromEnv(), max: 2, applicationName: 'nurture-home-seed' });
  try {
    const result = await seedDemoCatalogue(db);
    log(result.seeded ? `demo catalogue loaded (${result.products} products)` : 'catalogue present, nothing to do');
  } finally {
    await db.$client.end();
  }
});
