import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('health and the API frame', () => {
  it('answers /healthz', async () => {
    const res = await api.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz when Postgres and Redis are reachable', async () => {
    const res = await api.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('stays ready on /readyz when Redis is unreachable, saying degraded (the limits fail open: docs/decisions/production-safety.md)', async () => {
    const broken = await startTestApi({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await broken.request('/readyz');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'degraded', checks: { postgres: 'ok', redis: 'down' } });
    } finally {
      await broken.close();
    }
  });

  it('answers an unknown /api path with JSON 404', async () => {
    const res = await api.request('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'No API route GET /api/does-not-exist', code: 'ROUTE_NOT_FOUND' });
  });

  it('refuses malformed JSON with a 400 a person can read', async () => {
    const res = await fetch(`${api.url}/api/anything`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
  });

  it('refuses a non-JSON write', async () => {
    const res = await fetch(`${api.url}/api/newsletter`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(res.status).toBe(415);
  });

  it('sets security headers', async () => {
    const res = await api.request('/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
