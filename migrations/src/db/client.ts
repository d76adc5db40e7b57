import { sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema> & { $client: pg.Pool };
/** A database handle or an open transaction: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

// numeric comes back as a string (money columns convert it themselves); int8 counts as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DbOptions {
  url: string;
  max?: number;
  applicationName?: string;
  /** The URL is a pooler in transaction mode: statements are sent unnamed (DATABASE_POOLED). */
  pooled?: boolean;
}

/**
 * A client that sends every statement unnamed. A named prepared statement lives in one server session;
 * behind PgBouncer in transaction mode the next transaction may run on another server connection, where
 * the name is unknown ("prepared statement … does not exist") or already taken. Unnamed statements are
 * still parsed with their parameters bound, so nothing is spliced into the SQL.
 */
class UnnamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config] = args;
    if (config && typeof config === 'object' && 'name' in config) args[0] = { ...(config as object), name: undefined };
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/**
 * How long a connection may sit idle in the pool before it is closed: a minute, not pg's 10 s. A burst
 * opens more connections than the steady load keeps busy; closed after 10 s, they had to be opened again
 * for the next burst, and a new Postgres backend spends tens of ms on its first statements (catalogue
 * cache, plans, the report functions' PL/pgSQL), in the tail of the requests that wait on it
 * (docs/decisions/checkout.md, "Warm connections across bursts, and the worker's priority"). An idle
 * connection costs the server little next to that; `max` still bounds them.
 */
export const POOL_IDLE_MS = 60_000;

export function createDb({ url, max = 10, applicationName = 'nurture-home', pooled = false }: DbOptions): Db {
  // allowExitOnIdle: idle connections alone do not keep a process alive (a script that forgot `end()`
  // exits as it did with the 10 s timeout; a server is kept alive by its listener or its queues).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: applicationName,
    idleTimeoutMillis: POOL_IDLE_MS,
    allowExitOnIdle: true,
    ...(pooled ? { Client: UnnamedStatementClient } : {}),
  });
  // An idle client that errors (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return drizzle({ client: pool, schema, casing: 'snake_case' });
}

/**
 * The pool for reads that may lag (docs/decisions/scale-out.md): DATABASE_READ_URL's replica, under
 * the same DATABASE_POOLED rule, or `primary` itself when there is none.
 */
export function createReadDb(
  settings: { DATABASE_READ_URL?: string; DATABASE_READ_POOL_MAX?: number; DATABASE_POOLED: boolean },
  primary: Db,
  defaults: { max: number; applicationName: string },
): Db {
  if (!settings.DATABASE_READ_URL) return primary;
  return createDb({ url: settings.DATABASE_READ_URL, max: settings.DATABASE_READ_POOL_MAX ?? defaults.max, pooled: settings.DATABASE_POOLED, applicationName: defaults.applicationName });
}

export { schema };

/**
 * A string as an SQL literal (or `null`), for the simple protocol, whose multi-statement messages take
 * no parameters: one transaction in one round trip.
 */
export const sqlLiteral = (client: pg.ClientBase, value: string | null): string => (value === null ? 'null' : client.escapeLiteral(value));

/**
 * A statement written with positional placeholders ($1, $2 …) as a drizzle SQL value, each value bound
 * as one parameter (an array too), so one hand-written statement serves a pg client and a drizzle
 * transaction alike.
 */
export function positionalSql(text: string, values: readonly unknown[]): SQL {
  const chunks: (SQL | ReturnType<typeof sql.param>)[] = [];
  let last = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, m.index)), sql.param(values[Number(m[1]) - 1]));
    last = m.index + m[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}
