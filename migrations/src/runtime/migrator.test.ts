import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from './database';
import { readMigrations, splitMigration, type Migration } from './migrator';

/** Tables a live shop keeps growing: an index built on one in a transaction stops checkouts for the whole build. */
const LARGE_TABLES = ['orders', 'payment_transactions', 'email_log', 'audit_events', 'outbox', 'customers', 'subscriptions', 'reviews', 'netsuite_sync_attempts'];
/** Migrations written before the rule, whose plain index builds on a large table are kept (docs/decisions/migrations.md). */
const BEFORE_THE_RULE = new Set(['0000_init']);

/** The plain (blocking) index builds of a migration on large tables it did not create. */
function blockingIndexBuilds(m: Migration): string[] {
  const created = (table: string) => m.statements.some((s) => new RegExp(`create table (if not exists )?"?${table}"?`, 'i').test(s));
  return m.statements.flatMap((statement) => {
    const index = /create\s+(?:unique\s+)?index\s+(?!concurrently)(?:if not exists\s+)?"?(\w+)"?\s+on\s+"?(\w+)"?/i.exec(statement);
    return index && LARGE_TABLES.includes(index[2]!) && !created(index[2]!) ? [`${m.tag}: ${index[1]} on ${index[2]}`] : [];
  });
}

const migration = (statements: string[]): Migration => ({ tag: '9999_test', createdAt: 1, hash: 'h', statements });

describe('migrations without long locks', () => {
  it('runs a migration’s concurrent statements after its transaction, and refuses one that could not run twice', () => {
    const m = migration(['ALTER TABLE "orders" ADD COLUMN "x" text', 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_x" ON "orders" ("x")']);
    expect(splitMigration(m)).toEqual({ inTransaction: [m.statements[0]], concurrent: [m.statements[1]] });
    expect(() => splitMigration(migration(['CREATE INDEX CONCURRENTLY "orders_x" ON "orders" ("x")']))).toThrow(/needs IF NOT EXISTS/);
    // A comment that says "concurrently" is not a concurrent statement.
    expect(blockingIndexBuilds(migration(['CREATE INDEX "orders_x" ON "orders" USING btree ("x")']))).toEqual(['9999_test: orders_x on orders']);
    expect(blockingIndexBuilds(migration(['CREATE TABLE "orders" ("x" text)', 'CREATE INDEX "orders_x" ON "orders" ("x")']))).toEqual([]);
    expect(splitMigration(migration(['-- built concurrently later\nALTER TABLE "orders" ADD COLUMN "y" text'])).concurrent).toEqual([]);
  });

  it('every shipped migration is accepted, and builds its indexes on large tables concurrently', () => {
    const migrations = readMigrations(MIGRATIONS_FOLDER);
    expect(migrations.length).toBeGreaterThan(30);
    const blocking = migrations.flatMap((m) => {
      splitMigration(m);
      return BEFORE_THE_RULE.has(m.tag) ? [] : blockingIndexBuilds(m);
    });
    expect(blocking).toEqual([]);
  });
});
