/**
 * The single-use links the API's emails would carry. The API writes no token anywhere: the outbox row
 * names the link's row, and the mail worker makes the token as it sends (`mintSingleUseToken`). Here
 * the test stands in for the mail worker and makes the token the same way.
 */
import { mintSingleUseToken } from '@nh/server/queries/single-use-tokens';
import type { Db } from '@nh/server/db/client';

/** `check` again every 20 ms until it gives a value: reset requests and lookups are answered before their work is done. */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const tableOf = (topic: string) => (topic.startsWith('staff.') ? 'staff_tokens' : 'shopper_tokens');

/**
 * The outbox rows of `topic` whose link was sent to `email`, oldest first, once there are `count` of
 * them (waiting for the work done after the answer): each payload exactly as the relay reads it.
 */
export async function linkRows(db: Db, topic: string, email: string, count = 1): Promise<Array<{ tokenId: string; payload: unknown }>> {
  const table = tableOf(topic);
  return eventually(async () => {
    const { rows } = await db.$client.query<{ token_id: string; payload: unknown }>(
      `select t.id as token_id, o.payload from outbox o join ${table} t on t.id = (o.payload->>'tokenId')::uuid
       where o.topic = $1 and t.email = lower($2) order by o.id`,
      [topic, email],
    );
    return rows.length >= count && rows.map((r) => ({ tokenId: r.token_id, payload: r.payload }));
  }, `${count} ${topic} outbox row(s) for ${email}`);
}

/** Tokens for the given links (rows of the table `topic`'s email uses), made as the mail worker makes them. */
export async function mint(db: Db, topic: string, tokenIds: string[]): Promise<string[]> {
  const client = await db.$client.connect();
  try {
    const tokens: string[] = [];
    for (const tokenId of tokenIds) {
      const token = await mintSingleUseToken(client, tableOf(topic), tokenId);
      if (!token) throw new Error(`the ${topic} link ${tokenId} is used or expired: no email would be sent`);
      tokens.push(token);
    }
    return tokens;
  } finally {
    client.release();
  }
}

/** The tokens of the (at least `count`) links emailed to `email` for `topic`, oldest first, made as the mail worker makes them. */
export async function emailedTokens(db: Db, topic: string, email: string, count = 1): Promise<string[]> {
  return mint(
    db,
    topic,
    (await linkRows(db, topic, email, count)).map((r) => r.tokenId),
  );
}

/** The token of the latest link emailed to `email` for `topic` (the earlier ones are left as they are). */
export async function emailedToken(db: Db, topic: string, email: string): Promise<string> {
  const [token] = await mint(db, topic, [(await linkRows(db, topic, email)).at(-1)!.tokenId]);
  return token!;
}
