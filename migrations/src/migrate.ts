// `npm run db:migrate` (the release step): creates the database if missing, applies every pending
// migration, and creates the first owner of the back office while no staff account exists.
import { databaseUrlFromEnv, runScript } from './runtime/script';
import { applyMigrations, ensureDatabase } from './runtime/database';
import { createDb } from './db/client';
import { ensureFirstOwner } from './first-owner';

await runScript('migrate', async (log) => {
  const url = databaseUrlFromEnv();
  if (await ensureDatabase(url)) log('created database');
  await applyMigrations(url);
  log('migrations applied');
  const db = createDb({ url, max: 1, applicationName: 'nurture-home-migrate' });
  try {
    const owner = await ensureFirstOwner(db, process.env);
    if (owner.kind === 'created') log(`first owner created: ${owner.email}`);
  } finally {
    await db.$client.end();
  }
});
