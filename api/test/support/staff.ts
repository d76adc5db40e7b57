import { randomUUID } from 'node:crypto';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import type { StaffRole } from '@nh/shared/contracts/staff';
import type { TestApi } from './harness';

export const STAFF_TEST_PASSWORD = 'correct horse battery staple';

let hashed: Promise<string> | undefined;

export interface StaffClient {
  id: string;
  email: string;
  role: StaffRole;
  /** The `Cookie` header of the signed-in session. */
  cookie: string;
  /** `api.request` with the session cookie. */
  request: TestApi['request'];
}

/** A new staff account of `role` (a unique email), signed in through POST /api/admin/session. */
export async function signInAs(api: TestApi, role: StaffRole, options: { email?: string } = {}): Promise<StaffClient> {
  const email = options.email ?? `${role}-${randomUUID().slice(0, 8)}@staff.test`;
  const staff = await insertStaff(api.ctx.db, { email, name: `Test ${role}`, role, passwordHash: await (hashed ??= hashPassword(STAFF_TEST_PASSWORD)) });
  const res = await api.request('/api/admin/session', { method: 'POST', body: { email, password: STAFF_TEST_PASSWORD } });
  if (res.status !== 200) throw new Error(`staff sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = sessionCookie(res);
  return {
    id: staff.id,
    email,
    role,
    cookie,
    request: (path, init = {}) => api.request(path, { ...init, headers: { cookie, ...init.headers } }),
  };
}

/** The `name=value` of the staff session cookie a response set. */
export function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('nh.staff='));
  if (!set) throw new Error('no staff session cookie set');
  return set.split(';')[0]!;
}
