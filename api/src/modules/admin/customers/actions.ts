/**
 * Staff's actions for a customer (issue 23): email a sign-in code to an account (the shoppers' emailed
 * code flow: a row whose code the mail worker makes, never seen by staff), and give the account the
 * orders placed as a guest with its email, once the account proved it holds that email. Both audited.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { accountEmailVerified, mergeGuestOrders } from '@nh/server/queries/customers';
import { recordOutbox } from '@nh/server/queries/outbox';
import { insertSignInCode } from '@nh/server/queries/sign-in-codes';
import { CUSTOMER_MESSAGES } from '@nh/shared/contracts/admin-customers';
import { SIGN_IN_CODE_TTL_MS } from '@nh/shared/contracts/auth';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { AppError } from '../../../lib/errors';
import { loadCustomer } from './service';

/** The account behind a customer id: refused for a guest and for an anonymised customer. */
export async function loadAccount(db: Db, id: string) {
  const c = await loadCustomer(db, id);
  if (c.anonymised_at) throw new AppError('CUSTOMER_ANONYMISED', CUSTOMER_MESSAGES.anonymised);
  if (!c.user_id) throw new AppError('CUSTOMER_NO_ACCOUNT', CUSTOMER_MESSAGES.noAccount);
  return { ...c, user_id: c.user_id };
}

export async function sendSignInCode(db: Db, id: string, actor: AuditActor): Promise<{ message: string }> {
  const c = await loadAccount(db, id);
  await db.transaction(async (tx) => {
    const row = await insertSignInCode(tx, { email: c.email, userId: c.user_id, expiresAt: new Date(Date.now() + SIGN_IN_CODE_TTL_MS) });
    await recordOutbox(tx, OUTBOX_TOPICS.shopperSignInCodeRequested, { codeId: row.id });
    await recordAudit(tx, actor, { action: 'customer.sign_in_code_sent', entityType: 'customer', entityId: c.id, before: null, after: { codeId: row.id } });
  });
  return { message: CUSTOMER_MESSAGES.codeSent };
}

export async function mergeGuestOrdersIntoAccount(db: Db, id: string, actor: AuditActor): Promise<{ merged: string[] }> {
  const c = await loadAccount(db, id);
  if (!(await accountEmailVerified(db, c.user_id, c.email))) throw new AppError('CUSTOMER_EMAIL_NOT_VERIFIED', CUSTOMER_MESSAGES.notVerified);
  return db.transaction(async (tx) => {
    const merged = await mergeGuestOrders(tx, c.id, c.user_id);
    if (merged.length === 0) throw new AppError('CUSTOMER_NOTHING_TO_MERGE', CUSTOMER_MESSAGES.nothingToMerge);
    await recordAudit(tx, actor, { action: 'customer.guest_orders_merged', entityType: 'customer', entityId: c.id, before: null, after: { orders: merged } });
    return { merged };
  });
}
