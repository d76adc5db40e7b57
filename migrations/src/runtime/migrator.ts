/**
 * Applies drizzle-kit's migrations (migrations/sql, its journal and its `drizzle.__drizzle_migrations`
 * table, so databases migrated before keep their history) without holding long locks on a live shop:
 *
 * - One release at a time: a session advisory lock, so two releases starting together apply each
 *   migration once (the second waits, then finds nothing pending).
 * - Each migration in a transaction of its own (drizzle's own migrator runs every pending one in one
 *   transaction, so a lock taken by the first is held until the last is done), with `lock_timeout`:
 *   a statement that cannot get its lock soon gives up instead of queueing every checkout behind it,
 *   and the migration is tried again after a pause.
 * - `CREATE INDEX CONCURRENTLY` (and `DROP INDEX CONCURRENTLY`) cannot run in a transaction: a
 *   migration's concurrent statements run after its transaction commits, one by one. Its history row is
 *   written in the transaction marked `concurrent-pending:`, and completed once they are done, so a
 *   release stopped between the two finishes them next time. They must be safe to repeat (`IF NOT
 *   EXISTS`), and an index a stopped build left invalid is dropped and built again.
 *
 * Needs a session connection (not PgBouncer in transaction mode): the release uses DATABASE_DIRECT_URL.
 * docs/decisions/migrations.md has the rules for writing migrations (expand, then contract).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

export interface MigratorOptions {
  /** The folder drizzle-kit writes: `<tag>.sql` files and `meta/_journal.json`. */
  migrationsFolder: string;
  /** The history table in schema `drizzle` (drizzle's own name by default). */
  migrationsTable?: string;
  /** How long a statement may wait for a lock before the migration gives up and is tried again. */
  lockTimeoutMs?: number;
  /** How many times a migration that met a busy lock is tried again before the release fails. */
  retries?: number;
  /** The pause before the first retry; each next one doubles, to at most 30 s. */
  retryDelayMs?: number;
  log?: (message: string) => void;
}

export interface Migration {
  tag: string;
  /** The journal's `when`: drizzle records it as `created_at`, and applies what is newer than the newest recorded. */
  createdAt: number;
  hash: string;
  statements: string[];
}

const ADVISORY_KEY = 'nurture-home:migrate';
/** SQLSTATE lock_not_available: `lock_timeout` ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

/** The journal's migrations, in order, split at drizzle-kit's statement breakpoints. */
export function readMigrations(folder: string): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map(({ tag, when }) => {
    const text = readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
    const statements = text
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => s.replace(/--.*$/gm, '').trim() !== '');
    return { tag, createdAt: when, hash: createHash('sha256').update(text).digest('hex'), statements };
  });
}

const withoutComments = (statement: string) => statement.replace(/--.*$/gm, '').trim();
const isConcurrent = (statement: string) => /\bconcurrently\b/i.test(withoutComments(statement));
const isRepeatable = (statement: string) => /\bif (not )?exists\b/i.test(withoutComments(statement));
/** The history row's hash while a migration's concurrent statements are still to run. */
const PENDING = 'concurrent-pending:';

/** A migration's statements: those of its transaction, and the concurrent ones run after it. Throws when a concurrent one is not safe to repeat. */
export function splitMigration(m: Migration): { inTransaction: string[]; concurrent: string[] } {
  const concurrent = m.statements.filter(isConcurrent);
  const unsafe = concurrent.find((s) => !isRepeatable(s));
  if (unsafe) throw new Error(`migration ${m.tag}: a CONCURRENTLY statement runs outside the transaction and may run twice, so it needs IF NOT EXISTS / IF EXISTS: ${unsafe.split('\n')[0]}`);
  return { inTransaction: m.statements.filter((s) => !isConcurrent(s)), concurrent };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const identifier = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unusual migrations table name: ${name}`);
  return `drizzle."${name}"`;
};

/** Applies the pending migrations on `client` (a session of its own); answers the tags applied. */
export async function runMigrations(client: pg.ClientBase, options: MigratorOptions): Promise<string[]> {
  const { migrationsFolder, lockTimeoutMs = 1000, retries = 30, retryDelayMs = 1000, log = () => {} } = options;
  const table = identifier(options.migrationsTable ?? '__drizzle_migrations');
  const migrations = readMigrations(migrationsFolder);
  const parts = new Map(migrations.map((m) => [m, splitMigration(m)])); // a badly written migration refused before anything runs
  const lockTimeout = Math.trunc(lockTimeoutMs);

  await takeReleaseLock(client, log);
  try {
    await client.query('create schema if not exists drizzle');
    await client.query(`create table if not exists ${table} (id serial primary key, hash text not null, created_at bigint)`);
    const { rows: unfinished } = await client.query<{ created_at: string }>(`select created_at::text from ${table} where hash like '${PENDING}%'`);
    for (const row of unfinished) {
      const m = migrations.find((x) => x.createdAt === Number(row.created_at));
      if (!m) throw new Error(`the database has a migration (${row.created_at}) whose concurrent statements did not finish, and this release does not know it`);
      log(`${m.tag}: finishing its concurrent statements`);
      await finishConcurrent(client, m, parts.get(m)!.concurrent, table);
    }
    const { rows } = await client.query<{ created_at: string | null }>(`select max(created_at)::text as created_at from ${table}`);
    const last = Number(rows[0]?.created_at ?? 0);
    const applied: string[] = [];
    for (const m of migrations.filter((x) => x.createdAt > last)) {
      const { inTransaction, concurrent } = parts.get(m)!;
      await withLockRetries(m.tag, { retries, retryDelayMs, log }, async () => {
        await client.query('begin');
        try {
          await client.query(`set local lock_timeout = ${lockTimeout}`);
          for (const statement of inTransaction) await client.query(statement);
          await client.query(`insert into ${table} (hash, created_at) values ($1, $2)`, [(concurrent.length ? PENDING : '') + m.hash, m.createdAt]);
          await client.query('commit');
        } catch (err) {
          await client.query('rollback');
          throw err;
        }
      });
      if (concurrent.length) await finishConcurrent(client, m, concurrent, table);
      log(`applied ${m.tag}`);
      applied.push(m.tag);
    }
    return applied;
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [ADVISORY_KEY]);
  }
}

/**
 * The release's advisory lock, asked for again every half second rather than waited for: a session
 * waiting in pg_advisory_lock holds a snapshot, and the other release's CREATE INDEX CONCURRENTLY waits
 * for every older snapshot to end, so the two would deadlock.
 */
async function takeReleaseLock(client: pg.ClientBase, log: (m: string) => void): Promise<void> {
  for (let said = false; ; said = true) {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [ADVISORY_KEY]);
    if (rows[0]?.locked) return;
    if (!said) log('another release is migrating; waiting for it');
    await sleep(500);
  }
}

async function withLockRetries(tag: string, o: { retries: number; retryDelayMs: number; log: (m: string) => void }, apply: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await apply();
    } catch (err) {
      if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= o.retries) throw err;
      const pause = Math.min(o.retryDelayMs * 2 ** attempt, 30_000);
      o.log(`${tag}: a table it changes is busy (lock_timeout); trying again in ${pause} ms (${attempt + 1} of ${o.retries})`);
      await sleep(pause);
    }
  }
}

/**
 * The concurrent statements, outside any transaction, then the history row completed. A concurrent
 * build takes SHARE UPDATE EXCLUSIVE, which lets inserts and updates through, so it waits without a
 * lock timeout.
 */
async function finishConcurrent(client: pg.ClientBase, m: Migration, statements: string[], table: string): Promise<void> {
  await client.query('set lock_timeout = 0');
  try {
    for (const statement of statements) {
      await dropInvalidIndex(client, statement);
      await client.query(statement);
    }
  } finally {
    await client.query('reset lock_timeout');
  }
  await client.query(`update ${table} set hash = $1 where created_at = $2 and hash = $3`, [m.hash, m.createdAt, PENDING + m.hash]);
}
/** A `CREATE INDEX CONCURRENTLY IF NOT EXISTS name` stopped halfway left an invalid index that IF NOT EXISTS would keep: drop it first. */
async function dropInvalidIndex(client: pg.ClientBase, statement: string): Promise<void> {
  const name = /create\s+(?:unique\s+)?index\s+concurrently\s+if\s+not\s+exists\s+"?([A-Za-z0-9_]+)"?/i.exec(statement)?.[1];
  if (!name) return;
  const { rows } = await client.query<{ invalid: boolean }>(
    `select not i.indisvalid as invalid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = $1 and pg_table_is_visible(c.oid)`,
    [name],
  );
  if (rows[0]?.invalid) await client.query(`drop index concurrently if exists "${name}"`);
}
