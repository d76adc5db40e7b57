/**
 * Migration subscription_movements (issue 23): the snapshot days kept before it get their MRR and daily
 * movement (the same function the snapshot writer calls), each day against the one before it, so the
 * subscriptions report's sum of days covers them. Run on a database of its own, migrated to just before,
 * then to the end.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '@nh/server/testing/provided';
import { createDb, type Db } from '@nh/server/db/client';
import { applyMigrations, dropDatabase, ensureDatabase, MIGRATIONS_FOLDER } from '@nh/server/runtime/database';
import { mrrMovement } from '@nh/server/queries/subscription-snapshots';

const TAG = 'subscription_movements';
const url = new URL(inject('databaseUrl'));
url.pathname = `/nh_sub_movements_${randomUUID().slice(0, 8)}`;
let db: Db;
let before: string;

/** The migrations folder as it was before this migration: its SQL files and a journal that ends just before it. */
function folderBefore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nh-migrations-'));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(TAG));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

beforeAll(async () => {
  await ensureDatabase(url.toString());
  db = createDb({ url: url.toString(), max: 2 });
  before = folderBefore();
  await applyMigrations(url.toString(), { migrationsFolder: before });
});
afterAll(async () => {
  await db?.$client.end();
  await dropDatabase(url.toString());
  fs.rmSync(before, { recursive: true, force: true });
});

const q = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => db.$client.query<T>(text, values).then((r) => r.rows);

/** A day's snapshot as the release before this migration wrote it (monthly plans only here). */
const oldSnapshot = (day: string) =>
  q(`insert into subscription_snapshots (day, subscription_id, status, mrr_cents)
     select $1, id, status, case when status = 'active' then round(amount * 100) else 0 end from subscriptions where status in ('active', 'paused')`, [day]);

describe('migration subscription_movements', () => {
  it('backfills each kept snapshot day: its MRR and its movement against the day before', async () => {
    const plan = async (amount: string) =>
      (await q<{ id: string }>(`insert into subscriptions (customer_email, customer_name, items, amount, next_billing_date) values ('m@example.com', 'M', '[]', $1, now()) returning id`, [amount]))[0]!.id;
    const a = await plan('30.00');
    const b = await plan('20.00');
    await oldSnapshot('2026-03-01');
    await q(`update subscriptions set amount = 35 where id = $1`, [a]); // expansion +500
    await q(`update subscriptions set status = 'cancelled' where id = $1`, [b]); // churned -2000
    await oldSnapshot('2026-03-02');
    await q(`update subscriptions set status = 'active' where id = $1`, [b]); // reactivated +2000
    await oldSnapshot('2026-03-04');

    await applyMigrations(url.toString());

    const rows = await q<{ day: string; kind: string; plans: number; cents: string }>(
      `select to_char(day, 'YYYY-MM-DD') as day, kind, plans, cents::text from subscription_movements order by day, kind`,
    );
    expect(rows).toEqual([
      { day: '2026-03-01', kind: 'mrr', plans: 2, cents: '5000' },
      { day: '2026-03-02', kind: 'churned', plans: 1, cents: '-2000' },
      { day: '2026-03-02', kind: 'expansion', plans: 1, cents: '500' },
      { day: '2026-03-02', kind: 'mrr', plans: 1, cents: '3500' },
      { day: '2026-03-04', kind: 'mrr', plans: 2, cents: '5500' },
      { day: '2026-03-04', kind: 'reactivated', plans: 1, cents: '2000' },
    ]);
    const sums = await mrrMovement(db.$client, '2026-03-01', '2026-03-04');
    expect(sums.start.cents + Object.values(sums.kinds).reduce((n, k) => n + k.cents, 0)).toBe(sums.end.cents);
    // The backfill ran once: writing again changes nothing.
    expect(await q(`select write_subscription_movements('2026-03-04') as n`)).toEqual([{ n: 0 }]);
  });
});
