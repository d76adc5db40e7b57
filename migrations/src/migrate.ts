// `npm run db:migrate`: creates the database if missing and applies every pending migration.
import { databaseUrlFromEnv, runScript } from './script';
import { applyMigrations, ensureDatabase } from './database';

await runScript('migrate', async (log) => {
  const url = databaseUrlFromEnv();
  if (await ensureDatabase(url)) log('created database');
  await applyMigrations(url);
  log('migrations applied');
});
