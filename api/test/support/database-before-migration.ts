/**
 * A data migration's test database: a database of its own, migrated to just before the migration whose
 * tag ends with `tag` (its SQL files and a journal that stops there), so a test can write rows as the
 * release before it did, then `migrateToEnd()` and read what the migration made of them.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import '@nh/server/testing/provided';
import { createDb, type Db } from '@nh/server/db/client';
import { applyMigrations, dropDatabase, ensureDatabase, MIGRATIONS_FOLDER } from '@nh/server/runtime/database';

export interface DatabaseBeforeMigration {
  db: Db;
  /** Applies every migration left, the one under test first. */
  migrateToEnd: () => Promise<void>;
  drop: () => Promise<void>;
}

/** The migrations folder as it was before `tag`: its SQL files and a journal that ends just before it. */
function folderBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-migrations-'));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tag));
  if (at < 1) throw new Error(`no migration before one tagged ${tag}`);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

export async function databaseBeforeMigration(tag: string): Promise<DatabaseBeforeMigration> {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/nh_before_${tag.slice(0, 30)}_${randomUUID().slice(0, 8)}`;
  await ensureDatabase(url.toString());
  const db = createDb({ url: url.toString(), max: 2 });
  const folder = folderBefore(tag);
  await applyMigrations(url.toString(), { migrationsFolder: folder });
  return {
    db,
    migrateToEnd: async () => {
      await applyMigrations(url.toString());
    },
    drop: async () => {
      await db.$client.end();
      await dropDatabase(url.toString());
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
