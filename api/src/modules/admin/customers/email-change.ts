/**
 * Staff start changing a customer's email (issue 23; docs/decisions/admin.md, "Changing a customer's
 * email"): the new address gets a single-use link (24 h) to confirm; nothing about the account changes
 * until the customer confirms (api/src/modules/account/email-change.ts). Audited with the person.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { emailUsedByAnotherAccount, insertEmailChange } from '@nh/server/queries/email-change';
import { recordOutbox } from '@nh/server/queries/outbox';
import { EMAIL_CHANGE_MESSAGES, EMAIL_CHANGE_TTL_MS, type EmailChangeStarted } from '@nh/shared/contracts/email-change';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { AppError } from '../../../lib/errors';
import { loadAccount } from './actions';

export async function startEmailChange(db: Db, id: string, email: string, actor: AuditActor): Promise<EmailChangeStarted> {
  const c = await loadAccount(db, id);
  if (email === c.email.toLowerCase()) throw new AppError('CUSTOMER_EMAIL_SAME', EMAIL_CHANGE_MESSAGES.sameEmail);
  if (await emailUsedByAnotherAccount(db, email, c.user_id)) throw new AppError('CUSTOMER_EMAIL_TAKEN', EMAIL_CHANGE_MESSAGES.taken);
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_MS);
  await db.transaction(async (tx) => {
    const row = await insertEmailChange(tx, { userId: c.user_id, email, expiresAt });
    await recordOutbox(tx, OUTBOX_TOPICS.customerEmailChangeRequested, { tokenId: row.id });
    await recordAudit(tx, actor, {
      action: 'customer.email_change_started',
      entityType: 'customer',
      entityId: c.id,
      before: { email: c.email },
      after: { email, tokenId: row.id, expiresAt: expiresAt.toISOString() },
    });
  });
  return { message: EMAIL_CHANGE_MESSAGES.started, email, expiresAt: expiresAt.toISOString() };
}
