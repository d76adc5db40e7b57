/**
 * A transaction on one pooled connection, for work that runs hand-tuned statements (pg) between calls
 * to the outside (a payment gateway, the mail server, the queues): its begin, commit and rollback. The
 * statements themselves are in their query modules.
 */
import type pg from 'pg';
import type { Db } from '../db/client';

/** One connection of the pool, inside the transaction its caller opened on it. */
export type PoolConnection = pg.PoolClient;

/** Commits the connection's transaction. */
export async function commitTransaction(client: pg.ClientBase): Promise<void> {
  await client.query('commit');
}

/** Rolls the connection's transaction back. */
export async function rollbackTransaction(client: pg.ClientBase): Promise<void> {
  await client.query('rollback');
}

/** Runs `work` in one transaction on one pooled connection: committed when it answers, rolled back when it throws. */
export async function inPoolTransaction<T>(db: Db, work: (client: PoolConnection) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
