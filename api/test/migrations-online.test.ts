/**
 * Migrations on a live shop (issue 24, docs/decisions/migrations.md): two releases at once apply each
 * migration once, and the trigram index on 200k orders is built while checkouts run without any
 * checkout waiting on a lock for more than a second. Every session of the API on this database has
 * `lock_timeout = 1s`, so a checkout kept waiting longer fails; the same build done the old way (a plain
 * CREATE INDEX in a transaction) fails checkouts, which shows the measure catches a blocking build.
 */
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { inject, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDb } from '@nh/server/db/client';
import { applyMigrations, dropDatabase, ensureDatabase, MIGRATIONS_FOLDER } from '@nh/server/runtime/database';
import { readMigrations } from '@nh/server/runtime/migrator';
import { seedBenchOrders } from '@nh/server/testing/bench-orders';
import { startTestApi, type TestApi } from './support/harness';
import { checkout, checkoutBody, makeProduct } from './support/card-checkout';

const ORDERS = 200_000;
const trigramStatement = () => {
  const text = readFileSync(path.join(MIGRATIONS_FOLDER, '0010_order_table_indexes.sql'), 'utf8');
  return text.split('--> statement-breakpoint').map((s) => s.trim()).find((s) => s.includes('"orders_search_trgm"'))!;
};

/** A migrations folder holding one migration: `statement`. */
function folderWith(statement: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nh-online-migration-'));
  mkdirSync(path.join(dir, 'meta'));
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: [{ idx: 0, version: '7', when: Date.now(), tag: '0000_trigram', breakpoints: true }] }));
  writeFileSync(path.join(dir, '0000_trigram.sql'), statement);
  return dir;
}

/** Checkouts, two at a time, until `stop()`: each one's status. */
function checkoutLoop(api: TestApi, product: Awaited<ReturnType<typeof makeProduct>>) {
  const statuses: number[] = [];
  let running = true;
  const lane = async () => {
    while (running) statuses.push((await checkout(api, await checkoutBody(api, product))).status);
  };
  const lanes = [lane(), lane()];
  return {
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(lanes);
      return statuses;
    },
  };
}

const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !check(); ) await new Promise((r) => setTimeout(r, 50));
};

describe('migrations on a live shop', () => {
  it('two releases at once apply each migration once; the trigram index on 200k orders is built while checkouts run, none waiting on a lock over 1 s', { timeout: 300_000 }, async () => {
    const url = new URL(inject('databaseUrl'));
    url.pathname = `/nh_online_${randomUUID().slice(0, 8)}`;
    await ensureDatabase(url.toString());
    let api: TestApi | undefined;
    try {
      const [first, second] = await Promise.all([applyMigrations(url.toString()), applyMigrations(url.toString())]);
      expect([...first, ...second].sort()).toEqual(readMigrations(MIGRATIONS_FOLDER).map((m) => m.tag).sort());
      expect(await applyMigrations(url.toString())).toEqual([]);

      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      try {
        // 200k orders, seeded without the customer triggers (the customers table plays no part here).
        await admin.query('drop index orders_search_trgm');
        await admin.query('alter table orders disable trigger user');
        const db = createDb({ url: url.toString(), max: 1 });
        await seedBenchOrders(db, ORDERS).finally(() => db.$client.end());
        await admin.query('alter table orders enable trigger user');
        await admin.query(`alter database "${url.pathname.slice(1)}" set lock_timeout = '1s'`);

        api = await startTestApi({ DATABASE_URL: url.toString() });
        const product = await makeProduct(api);
        expect((await checkout(api, await checkoutBody(api, product))).status).toBe(200);

        // The shipped migration's statement, applied by the migrator while checkouts run.
        const loop = checkoutLoop(api, product);
        await until(() => loop.statuses.length > 0, 10_000);
        const startedWith = loop.statuses.length;
        expect(await applyMigrations(url.toString(), { migrationsFolder: folderWith(trigramStatement()), migrationsTable: 'online_test_migrations' })).toEqual(['0000_trigram']);
        const during = loop.statuses.length - startedWith;
        const statuses = await loop.stop();
        const { rows } = await admin.query<{ valid: boolean }>(`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'orders_search_trgm'`);
        expect(rows).toEqual([{ valid: true }]);
        expect(during).toBeGreaterThanOrEqual(3);
        expect(statuses.filter((s) => s !== 200)).toEqual([]);

        // The old way: the same index built in a transaction holds writes back for the whole build.
        await admin.query('drop index orders_search_trgm');
        const control = checkoutLoop(api, product);
        await until(() => control.statuses.length > 0, 10_000);
        await admin.query('begin');
        await admin.query(trigramStatement().replace(/ CONCURRENTLY IF NOT EXISTS/, ''));
        await until(() => control.statuses.some((s) => s !== 200), 5_000);
        await admin.query('commit');
        expect((await control.stop()).some((s) => s !== 200)).toBe(true);
      } finally {
        await admin.end();
      }
    } finally {
      await api?.close();
      await dropDatabase(url.toString());
    }
  });
});
