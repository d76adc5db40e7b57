// `npm run db:migrate` (the release step): creates the database if missing, applies every pending
// migration, and creates the first owner of the back office while no staff account exists.
import { databaseUrlFromEnv, runScript } from './runtime/script';
import { applyMigrations, ensureDatabase } from './runtime/database';
import { createDb } from './db/client';
import { ensureFirstOwner } from './first-owner';

await runScript('migrate', async (log) => {
  const url = databaseUrlFromEnv();
  // The release needs a session (an advisory lock, CREATE INDEX CONCURRENTLY): past a pooler in
  // transaction mode, DATABASE_DIRECT_URL names the database itself.
  const direct = process.env.DATABASE_DIRECT_URL || url;
  if (await ensureDatabase(direct)) log('created database');
  const lockTimeoutMs = Number(process.env.MIGRATION_LOCK_TIMEOUT_MS || 1000);
  if (!Number.isSafeInteger(lockTimeoutMs) || lockTimeoutMs < 1) throw new Error('MIGRATION_LOCK_TIMEOUT_MS must be a whole number of milliseconds, 1 or more');
  const applied = await applyMigrations(direct, { lockTimeoutMs, log });
  log(applied.length ? `migrations applied (${applied.length})` : 'migrations applied (none pending)');
  const db = createDb({ url: direct, max: 1, applicationName: 'nurture-home-migrate' });
  try {
    const owner = await ensureFirstOwner(db, process.env);
    if (owner.kind === 'created') log(`first owner created: ${owner.email}`);
  } finally {
    await db.$client.end();
  }
});
