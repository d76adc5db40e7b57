import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { whenAnswered } from '../src/lib/when-answered';

describe('whenAnswered (work done once an answer is sent)', () => {
  it('runs every hook once per request, after the answer went out, with one duration for all', async () => {
    const calls: Array<{ hook: string; path: string; status: number; ms: number; sent: boolean }> = [];
    const hook =
      (name: string) =>
      (req: express.Request, res: express.Response, ms: number): void =>
        void calls.push({ hook: name, path: req.originalUrl, status: res.statusCode, ms, sent: res.writableFinished });
    const app = express();
    app.use(whenAnswered(hook('log'), hook('metrics')));
    app.get('/slow', (_req, res) => void setTimeout(() => res.status(201).send('done'), 30));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${url}/slow`)).status).toBe(201);
      expect((await fetch(`${url}/nowhere?x=1`)).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(calls.map(({ hook: h, path, status, sent }) => [h, path, status, sent])).toEqual([
      ['log', '/slow', 201, true],
      ['metrics', '/slow', 201, true],
      ['log', '/nowhere?x=1', 404, true],
      ['metrics', '/nowhere?x=1', 404, true],
    ]);
    expect(calls[0]!.ms).toBeGreaterThanOrEqual(25);
    expect(calls[1]!.ms).toBe(calls[0]!.ms);
  });
});
