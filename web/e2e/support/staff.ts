/** Staff in the browser tests: an account of a role made straight in the database, and signing in on the admin page. */
import type { Page } from 'playwright-core';
import { insertStaff } from '@nh/server/queries/staff';
import { hashPassword } from '@nh/server/passwords';
import { STAFF_MESSAGES, type StaffRole } from '@nh/shared/contracts/staff';
import type { E2eApp } from './app';
import { visible } from './page-helpers';

export interface E2eStaff {
  email: string;
  name: string;
}

/** Staff accounts of the given roles, all with `password`. */
export async function addStaff(app: E2eApp, password: string, accounts: Array<E2eStaff & { role: StaffRole }>): Promise<void> {
  const passwordHash = await hashPassword(password);
  for (const account of accounts) await insertStaff(app.api.ctx.db, { ...account, passwordHash });
}

/** Signs in on the admin sign-in form the page shows, and waits for the signed-in message. */
export async function signInStaff(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await visible(page, STAFF_MESSAGES.signedIn);
}
