/**
 * Staff start changing a customer's email (issue 23; docs/decisions/admin.md, "Changing a customer's
 * email"): the new address gets a single-use link (24 h) to confirm; nothing about the account changes
 * until the customer confirms (api/src/modules/account/email-change.ts). Audited with the person. The
 * flow is the one the shopper starts from their account too (account/email-change-start.ts).
 */
import type { Db } from '@nh/server/db/client';
import type { AuditActor } from '@nh/server/queries/audit';
import type { EmailChangeStarted } from '@nh/shared/contracts/email-change';
import { beginEmailChange } from '../../account/email-change-start';
import { loadAccount } from './actions';

export async function startEmailChange(db: Db, id: string, email: string, actor: AuditActor): Promise<EmailChangeStarted> {
  const c = await loadAccount(db, id);
  return beginEmailChange(db, { userId: c.user_id, customerId: c.id, currentEmail: c.email }, email, actor, 'staff');
}
