import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApi } from './harness';

/** A signed-in shopper: a new account, and its session cookie sent on every call. */
export interface Shopper {
  id: string;
  email: string;
  /** The session cookie (`nh.sid=…`): sessions live in Postgres, so any test API accepts it. */
  cookie: string;
  call: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Response>;
}

/** Registers Ada Lovelace under a new `<prefix>.<random>@example.com` through POST /api/register. */
export async function signUpShopper(api: TestApi, prefix: string): Promise<Shopper> {
  const email = `${prefix}.${randomBytes(4).toString('hex')}@example.com`;
  const res = await api.request('/api/register', { body: { firstName: 'Ada', lastName: 'Lovelace', email, password: 'correct horse battery' } });
  expect(res.status).toBe(201);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('nh.sid='))!;
  return { id: user.id, email, cookie, call: (path, init = {}) => api.request(path, { ...init, headers: { cookie, ...init.headers } }) };
}

/** The JSON body, after checking the status (a failure shows the body too). */
export async function json(res: Response, status: number): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toMatchObject({ status });
  return body;
}
