/** Whether PostgreSQL answers: a process's start-up probe (it fails fast when the database is unreachable). */
import type { Db } from '../db/client';

export async function pingDatabase(db: Db): Promise<void> {
  await db.$client.query('select 1');
}
