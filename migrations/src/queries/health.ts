/** Whether PostgreSQL answers: the one statement of the start-up checks and the workers' heartbeat. */
import type { Db } from '../db/client';

/** Resolves once the database answered a trivial statement; rejects when it cannot. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$client.query('select 1');
}
