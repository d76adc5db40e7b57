import { describe, expect, it } from 'vitest';
import type { RequestHandler } from 'express';
import { inOrder } from '../src/lib/in-order';

/** Runs `handler` on a stand-in request; resolves with what it passed to the final `next`. */
const run = (handler: RequestHandler) =>
  new Promise<{ err: unknown; seen: string[] }>((resolve) => {
    const req = { seen: [] as string[] };
    handler(req as never, {} as never, (err?: unknown) => resolve({ err, seen: req.seen }));
  });

const step =
  (name: string, result?: unknown): RequestHandler =>
  (req, _res, next) => {
    (req as unknown as { seen: string[] }).seen.push(name);
    next(result);
  };

describe('inOrder (app-wide middleware as one router layer)', () => {
  it('runs each middleware in turn, then the rest of the app', async () => {
    expect(await run(inOrder(step('a'), step('b'), step('c')))).toEqual({ err: undefined, seen: ['a', 'b', 'c'] });
  });

  it("passes an error, thrown or given to next, to the app's error handling and runs nothing after it", async () => {
    const failure = new Error('no');
    expect(await run(inOrder(step('a'), step('b', failure), step('c')))).toEqual({ err: failure, seen: ['a', 'b'] });
    const thrower: RequestHandler = () => {
      throw failure;
    };
    expect(await run(inOrder(step('a'), thrower, step('c')))).toEqual({ err: failure, seen: ['a'] });
  });

  it('refuses a middleware that returns before calling next (they must be synchronous)', async () => {
    const later: RequestHandler = (_req, _res, next) => void setTimeout(next, 0);
    const { err, seen } = await run(inOrder(step('a'), later, step('c')));
    expect(String(err)).toMatch(/did not call next\(\) before returning/);
    expect(seen).toEqual(['a']);
  });

  it('keeps requests apart: one request failing leaves the next one alone', async () => {
    const handler = inOrder(step('a'), step('b'));
    const failing = inOrder(step('x', new Error('x')));
    expect((await run(failing)).err).toBeInstanceOf(Error);
    expect(await run(handler)).toEqual({ err: undefined, seen: ['a', 'b'] });
  });
});
