/**
 * The one error mapper (api/src/lib/errors.ts) with real PostgreSQL errors (docs/decisions/input-validation.md):
 * a data exception is the caller's 400, and a database error is logged by its code, table, constraint
 * and the request id, never with the values of the query. The API logs into a stream this file reads.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@nh/server/observability/logger';
import { errorHandler, UNSTORABLE_INPUT_MESSAGE } from '../src/lib/errors';
import { requestId } from '../src/lib/request-logger';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
const q = (text: string, values: unknown[] = []) => api.ctx.db.$client.query(text, values);
type Entry = { level: number; reqId?: string; msg: string; err?: Record<string, unknown> };
const entries = () => lines.map((line) => JSON.parse(line) as Entry);

beforeAll(async () => {
  api = await startTestApi({}, { log: createLogger('api-test', 'info', sink) });
});
afterAll(() => api.close());

describe('logging a database error', () => {
  it('names the code, table, constraint and request id of a failed registration, and nothing it was given', async () => {
    const tag = randomBytes(4).toString('hex');
    // Registrations from this one domain now break a constraint of the users table (NOT VALID: existing
    // rows are not checked, and no other test registers from this domain).
    const constraint = `log_probe_${tag}`;
    await q(`alter table users add constraint ${constraint} check (email not like '%@log-probe-${tag}.example') not valid`);
    const email = `ada.${tag}@log-probe-${tag}.example`;
    const password = `secret ${tag} horse battery`;
    const requestId = `log-probe-${tag}`;
    try {
      const res = await api.request('/api/register', {
        body: { firstName: 'Ada', lastName: `Lovelace${tag}`, email, password },
        headers: { 'x-request-id': requestId },
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
    } finally {
      await q(`alter table users drop constraint ${constraint}`);
    }

    const logged = entries().find((e) => e.reqId === requestId && e.msg === 'unhandled error');
    expect(logged).toMatchObject({ level: 50, err: { type: 'DatabaseError', code: '23514', table: 'users', constraint } });
    expect(logged!.err!.stack).toEqual(expect.stringContaining('    at '));
    const text = lines.join('\n');
    for (const secret of [email, tag + '@', `Lovelace${tag}`, password, 'scrypt$', 'params', 'insert into']) expect(text).not.toContain(secret);
  });
});

describe('the safety net for data the database refuses', () => {
  /** Statements failing with a real PostgreSQL error; their values must not reach the log either. */
  const failing: Record<string, SQL> = {
    '22P02': sql`select ${'not-a-number-7f3a'}::int`,
    '22003': sql`select ${'2147483648'}::int`,
    '22021': sql`select ${'nul\u0000-7f3a'}::text`,
    '22P05': sql`select ${JSON.stringify({ note: 'nul\u0000-7f3a' })}::jsonb`,
    // exports.store_code is varchar(10): the insert fails, nothing is written.
    '22001': sql`insert into exports (store_code) values (${'too-long-7f3a'})`,
    '42P01': sql`select * from no_such_table_7f3a`,
  };

  it('answers a data exception (SQLSTATE class 22) with a 400 and any other database error with a 500', async () => {
    const app = express();
    app.use(requestId(app, api.ctx.log));
    app.get('/probe/:code', async (req) => {
      await api.ctx.db.execute(failing[String(req.params.code)]!);
    });
    app.use(errorHandler);
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const code of Object.keys(failing)) {
        await expect(api.ctx.db.execute(failing[code]!), code).rejects.toMatchObject({ cause: { code } });
        const res = await fetch(`${url}/probe/${code}`, { headers: { 'x-request-id': `probe-${code}` } });
        const dataException = code.startsWith('22');
        expect([code, res.status, await res.json()]).toEqual([
          code,
          dataException ? 400 : 500,
          { message: dataException ? UNSTORABLE_INPUT_MESSAGE : 'Something went wrong on our side. Please try again.', code: dataException ? 'UNSTORABLE_INPUT' : 'INTERNAL' },
        ]);
        const logged = entries().find((e) => e.reqId === `probe-${code}` && e.err);
        expect(logged, code).toMatchObject({ level: dataException ? 40 : 50, err: { type: 'DatabaseError', code } });
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(lines.join('\n')).not.toContain('7f3a');
  });
});
