/**
 * Links made before the mail worker made their tokens (security review, issue 19), when the raw token
 * travelled in the outbox row and the email job. The migration `outbox_without_tokens` takes the tokens
 * out of the kept outbox rows and spoils the token of every open link whose email was never sent (only
 * an old job's data in Redis held it); a link that was emailed keeps working until it expires.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import * as tables from '@nh/server/db/schema';
import { newSingleUseToken } from '@nh/server/queries/single-use-tokens';
import { MIGRATIONS_FOLDER } from '@nh/server/runtime/database';
import { withFreshDatabase } from './support/fresh-database';
import { signInAs } from './support/staff';

const HOUR = 3_600_000;

it('the migration removes the raw tokens from outbox rows and spoils those whose email never left; an emailed link still works', async () => {
  await withFreshDatabase(async (fresh) => {
    const { db } = fresh.ctx;
    const owner = await signInAs(fresh, 'owner');
    const [user] = await db
      .insert(tables.users)
      .values({ email: 'before@example.com', firstName: 'Bea', passwordHash: 'x' })
      .returning({ id: tables.users.id });
    // As the old API wrote them: the link's row with the token's hash, the raw token in the outbox row.
    const old = async (purpose: 'password_reset', emailed: 'sent' | 'failed' | null) => {
      const { token, hash } = newSingleUseToken();
      const [row] = await db
        .insert(tables.shopperTokens)
        .values({ tokenHash: hash, purpose, email: 'before@example.com', userId: user!.id, expiresAt: new Date(Date.now() + HOUR) })
        .returning({ id: tables.shopperTokens.id });
      await db
        .insert(tables.outbox)
        .values({ topic: 'shopper.password-reset-requested', payload: { tokenId: row!.id, token }, publishedAt: new Date() });
      if (emailed)
        await db
          .insert(tables.emailLog)
          .values({ kind: 'shopper-password-reset', subjectId: row!.id, toAddress: 'before@example.com', status: emailed });
      return token;
    };
    const delivered = await old('password_reset', 'sent');
    const bounced = await old('password_reset', 'failed');
    const waiting = await old('password_reset', null);
    const invitation = newSingleUseToken();
    const [invited] = await db
      .insert(tables.staffTokens)
      .values({
        tokenHash: invitation.hash,
        purpose: 'invitation',
        email: 'late@staff.test',
        role: 'manager',
        createdBy: owner.id,
        expiresAt: new Date(Date.now() + 72 * HOUR),
      })
      .returning({ id: tables.staffTokens.id });
    await db.insert(tables.outbox).values({ topic: 'staff.invited', payload: { tokenId: invited!.id, token: invitation.token } });

    const file = fs.readdirSync(MIGRATIONS_FOLDER).find((name) => name.endsWith('_outbox_without_tokens.sql'))!;
    for (const statement of fs.readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8').split('--> statement-breakpoint'))
      await db.$client.query(statement);

    const { rows } = await db.$client.query<{ payload: Record<string, unknown> }>('select payload from outbox');
    expect(rows).toHaveLength(4);
    for (const { payload } of rows) expect(Object.keys(payload)).toEqual(['tokenId']);
    // Tokens nobody was sent: spoiled. The invitation waiting for its email gets a new token when the worker sends it.
    const reset = (token: string) => fresh.request('/api/password/reset', { body: { token, password: 'a new password 1' } });
    expect((await reset(bounced)).status).toBe(410);
    expect((await reset(waiting)).status).toBe(410);
    expect((await fresh.request('/api/admin/invitations/check', { body: { token: invitation.token } })).status).toBe(404);
    // The emailed link works.
    expect((await reset(delivered)).status).toBe(200);
  });
});
