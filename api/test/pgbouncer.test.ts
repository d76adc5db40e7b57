/**
 * The shop behind PgBouncer in transaction mode (issue 24, docs/decisions/scale-out.md): Debian's
 * PgBouncer 1.18 keeps no named prepared statements, so with DATABASE_POOLED=true every statement goes
 * unnamed, and checkouts (whose statements are named for speed on a direct connection) work through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import pg from 'pg';
import { createDb } from '@nh/server/db/client';
import { ensureDatabase } from '@nh/server/runtime/database';
import { startPgBouncer, type PgBouncer } from '@nh/server/testing/pgbouncer';
import { startTestApi, type TestApi } from './support/harness';
import { checkout, checkoutBody, makeProduct } from './support/card-checkout';

let bouncer: PgBouncer;
let pooledUrl: string;

beforeAll(async () => {
  bouncer = await startPgBouncer(inject('databaseUrl'), 1);
  pooledUrl = bouncer.urlFor(inject('databaseUrl'));
});
afterAll(() => bouncer?.stop());

const NAMED = { name: 'pgbouncer-test-statement', text: 'select $1::int + 1 as n', values: [41] };

describe('behind PgBouncer in transaction mode', () => {
  it('named prepared statements break through it; the pooled setting sends them unnamed', async () => {
    // One server connection behind two clients: the second client's PARSE of the same name meets the first's.
    const clients = [new pg.Client({ connectionString: pooledUrl }), new pg.Client({ connectionString: pooledUrl })];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      expect((await clients[0]!.query(NAMED)).rows).toEqual([{ n: 42 }]);
      await expect(clients[1]!.query(NAMED)).rejects.toThrow(/prepared statement .* already exists/);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    const db = createDb({ url: pooledUrl, max: 4, pooled: true });
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => db.$client.query(NAMED)));
      expect(answers.map((a) => a.rows[0])).toEqual(Array.from({ length: 8 }, () => ({ n: 42 })));
    } finally {
      await db.$client.end();
    }
  });

  it('checkouts work through it with DATABASE_POOLED=true, eight at once on one server connection', async () => {
    let api: TestApi | undefined;
    try {
      api = await startTestApi({ DATABASE_URL: pooledUrl, DATABASE_POOLED: 'true' });
      const product = await makeProduct(api);
      const bodies = await Promise.all(Array.from({ length: 8 }, () => checkoutBody(api!, product)));
      const statuses = await Promise.all(bodies.map(async (body) => (await checkout(api!, body)).status));
      expect(statuses).toEqual(Array.from({ length: 8 }, () => 200));
      const { rows } = await api.ctx.db.$client.query<{ n: number }>(`select count(*)::int as n from orders where items @> $1::jsonb`, [JSON.stringify([{ productId: product.id }])]);
      expect(rows[0]!.n).toBe(8);
    } finally {
      await api?.close();
    }
  });

  it('the release step finds the database through the pooler without the postgres database', async () => {
    expect(await ensureDatabase(pooledUrl)).toBe(false);
  });
});
