import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, loggableError } from './logger';

/** A logger writing into an array of parsed lines. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger('test', 'info', sink), lines };
}

describe('createLogger redaction', () => {
  it('censors secrets at the top level and one or two levels down, cookies and authorization headers included', () => {
    const { log, lines } = capture();
    const secrets = { password: 's1', passwordHash: 'scrypt$x', token: 't1', dataValue: 'opaque', cardNumber: '4111111111111111', cardCode: '123' };
    log.info({
      ...secrets,
      body: secrets,
      user: { account: secrets },
      req: { headers: { cookie: 'nh.sid=abc', authorization: 'Bearer abc', host: 'shop.example' } },
      res: { headers: { 'set-cookie': ['nh.sid=abc'] } },
    });
    const censored = Object.fromEntries(Object.keys(secrets).map((key) => [key, '[redacted]']));
    expect(lines[0]).toMatchObject({
      ...censored,
      body: censored,
      user: { account: censored },
      req: { headers: { cookie: '[redacted]', authorization: '[redacted]', host: 'shop.example' } },
      res: { headers: { 'set-cookie': '[redacted]' } },
    });
  });
});

describe('loggableError', () => {
  it('keeps an ordinary error as pino logs it', () => {
    expect(loggableError(new TypeError('boom'))).toMatchObject({ type: 'TypeError', message: 'boom' });
  });

  it("withholds drizzle's failed-query message when a caller passes it as text", () => {
    expect(loggableError('Failed query: insert into users (email) values ($1)\nparams: ada@example.com')).toBe('database query failed (details withheld from the log)');
    expect(loggableError('NetSuite answered 503')).toBe('NetSuite answered 503');
  });
});
