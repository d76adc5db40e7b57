/**
 * The first owner of the back office, created at release (`migrate`) from ADMIN_EMAIL and
 * ADMIN_PASSWORD while no staff account exists; afterwards owners invite everyone else and the two
 * variables are ignored. Development and test fall back to a known demo owner; production requires both.
 */
import { z } from 'zod';
import { STAFF_PASSWORD_MIN_LENGTH } from '@nh/shared/contracts/staff';
import type { Db } from './db/client';
import { hashPassword as passwordHash } from './passwords';
import { countStaff, insertStaff } from './queries/staff';

export const DEV_OWNER = { email: 'owner@nurturehome.test', password: 'nurture-admin', name: 'Shop Owner' } as const;

const envSchema = z.object({
  ADMIN_EMAIL: z.string().trim().toLowerCase().email('ADMIN_EMAIL must be an email address').optional(),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_NAME: z.string().trim().min(1).max(100).optional(),
  NODE_ENV: z.string().optional(),
});

export type FirstOwnerOutcome = { kind: 'exists' } | { kind: 'created'; email: string };

export async function ensureFirstOwner(db: Db, env: NodeJS.ProcessEnv): Promise<FirstOwnerOutcome> {
  if ((await countStaff(db)) > 0) return { kind: 'exists' };
  const parsed = envSchema.parse(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v])));
  const production = parsed.NODE_ENV === 'production';
  const email = parsed.ADMIN_EMAIL ?? (production ? undefined : DEV_OWNER.email);
  const password = parsed.ADMIN_PASSWORD ?? (production ? undefined : DEV_OWNER.password);
  if (!email || !password) throw new Error('No staff account exists yet: set ADMIN_EMAIL and ADMIN_PASSWORD for the first owner and run the release again');
  if (production && password.length < STAFF_PASSWORD_MIN_LENGTH) throw new Error(`ADMIN_PASSWORD must be at least ${STAFF_PASSWORD_MIN_LENGTH} characters`);
  await insertStaff(db, { email, name: parsed.ADMIN_NAME ?? DEV_OWNER.name, role: 'owner', passwordHash: await passwordHash(password) });
  return { kind: 'created', email };
}
