/**
 * Shoppers' sessions are stored under the SHA-256 of their id (api/src/lib/session.ts), never the id
 * the cookie carries, as staff sessions and every emailed token are: a copy of the `sessions` table
 * opens no session. The migration `hashed_session_ids` keyed the sessions of before the same way, so
 * nobody was signed out by it.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { MIGRATIONS_FOLDER } from '@nh/server/runtime/database';
import { withFreshDatabase } from './support/fresh-database';
import { startTestApi } from './support/harness';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
/** The session id in an `nh.sid` cookie (express-session's `s:<id>.<signature>`). */
const sidOf = (cookie: string) => /^s:([^.]+)\./.exec(decodeURIComponent(cookie.slice('nh.sid='.length)))![1]!;
/** The cookie express-session would set for `sid` (cookie-signature's HMAC-SHA256, base64 without padding). */
const cookieFor = (sid: string, secret: string) =>
  `nh.sid=${encodeURIComponent(`s:${sid}.${createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '')}`)}`;

describe('shopper sessions at rest', () => {
  it('are stored under the hash of their id: the id in the cookie is in no row; sign-out removes the row', async () => {
    const api = await startTestApi();
    try {
      const email = `stored.${randomBytes(4).toString('hex')}@example.com`;
      const res = await api.request('/api/register', {
        body: { firstName: 'Sid', lastName: 'Stored', email, password: 'a good password 1' },
      });
      expect(res.status).toBe(201);
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .find((c) => c.startsWith('nh.sid='))!;
      const sid = sidOf(cookie);
      const stored = (sids: string[]) =>
        api.ctx.db.$client
          .query('select sid from sessions where sid = any($1)', [sids])
          .then((r) => r.rows.map((row: { sid: string }) => row.sid));
      expect(await stored([sid, sha256(sid)])).toEqual([sha256(sid)]);
      expect(await (await api.request('/api/auth/user', { headers: { cookie } })).json()).toMatchObject({ email });

      expect((await api.request('/api/logout', { method: 'POST', headers: { cookie } })).status).toBeLessThan(400);
      expect(await stored([sid, sha256(sid)])).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('of before the migration keep working: their rows are keyed by the hash of their id', async () => {
    await withFreshDatabase(async (fresh) => {
      const [user] = await fresh.ctx.db
        .insert(tables.users)
        .values({ email: 'before.session@example.com', firstName: 'Old', passwordHash: 'x' })
        .returning({ id: tables.users.id });
      const sid = randomBytes(24).toString('base64url');
      const expires = new Date(Date.now() + 24 * 3_600_000);
      // As connect-pg-simple stored it until now: under the id itself.
      await fresh.ctx.db.insert(tables.sessions).values({
        sid,
        sess: {
          cookie: { originalMaxAge: 86_400_000, expires: expires.toISOString(), httpOnly: true, path: '/', sameSite: 'lax' },
          userId: user!.id,
        },
        expire: expires,
      });
      const file = fs.readdirSync(MIGRATIONS_FOLDER).find((name) => name.endsWith('_hashed_session_ids.sql'))!;
      await fresh.ctx.db.$client.query(fs.readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8'));

      const { rows } = await fresh.ctx.db.$client.query<{ sid: string }>('select sid from sessions');
      expect(rows).toEqual([{ sid: sha256(sid) }]);
      const me = await fresh.request('/api/auth/user', { headers: { cookie: cookieFor(sid, fresh.ctx.config.SESSION_SECRET) } });
      expect(await me.json()).toMatchObject({ id: user!.id, email: 'before.session@example.com' });
    });
  });
});
