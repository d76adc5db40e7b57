import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { applyMigrations, dropDatabase, ensureDatabase } from '@nh/server/runtime/database';
import { startTestApi, type TestApi } from './harness';

/**
 * A database of its own with every migration, and an API on it: for rules and figures that count every
 * row of a table (other test files write to the shared test database at the same time). Dropped after.
 */
export async function withFreshDatabase(run: (fresh: TestApi) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/nh_fresh_${randomUUID().slice(0, 8)}`;
  await ensureDatabase(url.toString());
  await applyMigrations(url.toString());
  const fresh = await startTestApi({ DATABASE_URL: url.toString(), ...env });
  try {
    await run(fresh);
  } finally {
    await fresh.close();
    await dropDatabase(url.toString());
  }
}
