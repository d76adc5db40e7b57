/**
 * The emailed sign-in code (issue 22) end to end: the real API writes the request, the relay moves it to
 * the mail queue, the worker makes the code as it sends and the local SMTP server receives it; the code
 * then signs in through the API, once. The code lives in the email and nowhere else: not in an outbox
 * row, the job's data or result, anything in Redis under the queues' prefix, or a log line of the API or
 * the workers; the table keeps only its keyed hash.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as tables from '@nh/server/db/schema';
import { createLogger } from '@nh/server/observability/logger';
import { createRedis } from '@nh/server/runtime/redis';
import { hashSignInCode } from '@nh/server/queries/sign-in-codes';
import { startTestApi, type TestApi } from '../../api/test/support/harness';
import { TestSmtpServer } from './support/smtp-server';
import { createTestDatabase, startTestWorkers, testWorkerConfig, waitFor, type TestDatabase } from './support/setup';
import type { WorkerConfig } from '../src/lib/config';
import type { WorkerRuntime } from '../src/runtime';

const logged: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(chunk.toString('utf8'));
    done();
  },
});

let tdb: TestDatabase;
let smtp: TestSmtpServer;
let config: WorkerConfig;
let runtime: WorkerRuntime;
let api: TestApi;

beforeAll(async () => {
  tdb = await createTestDatabase('signincode');
  smtp = await new TestSmtpServer().start();
  config = testWorkerConfig(tdb.url, 'signincode', { SMTP_URL: smtp.url, WORKER_QUEUES: 'emails', EMAIL_BACKOFF_MS: '50' });
  runtime = await startTestWorkers(config, createLogger('workers-test', 'debug', sink));
  api = await startTestApi({ DATABASE_URL: tdb.url, QUEUE_PREFIX: config.QUEUE_PREFIX, LOG_LEVEL: 'debug' }, { log: createLogger('api-test', 'debug', sink) });
});
afterAll(async () => {
  await api?.close();
  await runtime?.close(2000);
  await smtp?.close();
  await tdb?.drop();
});

async function everythingInRedis(): Promise<string> {
  const redis = createRedis(config.REDIS_URL, 'client');
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.QUEUE_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

/** The code as a word of its own (not a run of digits inside a timestamp or an id). */
const asWord = (code: string) => new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`);

describe('the sign-in code email', () => {
  it('carries the code, which is nowhere else (outbox, Redis, logs, the table only as a keyed hash), and signs in once', async () => {
    const email = `code-${randomUUID().slice(0, 8)}@example.com`;
    const [user] = await tdb.db.insert(tables.users).values({ email, firstName: 'Robin', passwordHash: null }).returning();
    expect((await api.request('/api/login/email-code', { body: { email } })).status).toBe(202);
    const log = await waitFor(
      async () => (await tdb.db.select().from(tables.emailLog).where(eq(tables.emailLog.toAddress, email))).find((r) => r.kind === 'shopper-sign-in-code' && r.status === 'sent'),
      15_000,
      'the sign-in code email',
    );
    const mail = smtp.to(email).at(-1)!;
    expect(mail.decoded).toContain('Hi Robin,');
    const match = /sign-in code is (\d{6})/.exec(mail.decoded);
    expect(match, 'the code in the email').not.toBeNull();
    const code = match![1]!;
    const codeId = log.subjectId;

    const job = await waitFor(
      async () => (await runtime.queues.emails.getJobs(['completed'])).find((j) => j.name === 'shopper-sign-in-code' && (j.data as { codeId?: string }).codeId === codeId),
      10_000,
      'the sign-in code job',
    );
    expect(job.data).toMatchObject({ codeId });
    expect(JSON.stringify(job.data)).not.toMatch(asWord(code));
    expect(JSON.stringify(job.returnvalue)).not.toMatch(asWord(code));
    const outbox = await tdb.db.$client.query<{ row: string }>(`select row_to_json(o)::text as row from outbox o where topic = 'shopper.sign-in-code-requested'`);
    expect(outbox.rows.some((r) => r.row.includes(codeId))).toBe(true);
    expect(outbox.rows.filter((r) => asWord(code).test(r.row))).toEqual([]);
    const redis = await everythingInRedis();
    expect(redis).toContain(codeId);
    expect(asWord(code).test(redis), 'the code in Redis').toBe(false);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((line) => asWord(code).test(line))).toEqual([]);
    const [stored] = await tdb.db.select().from(tables.signInCodes).where(eq(tables.signInCodes.id, codeId));
    expect(stored!.codeHash).toBe(hashSignInCode(codeId, code));

    const first = await api.request('/api/login/email-code/verify', { body: { email, code } });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ user: { id: user!.id } });
    expect((await api.request('/api/login/email-code/verify', { body: { email, code } })).status).toBe(401);
    // Nothing the sign-in logged holds the code either.
    expect(logged.filter((line) => asWord(code).test(line))).toEqual([]);
  }, 60_000);
});
