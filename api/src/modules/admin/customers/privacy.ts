/**
 * Privacy requests (issue 23; owners and managers, audited): export everything held about a customer as
 * JSON, and anonymise them: their open plans cancelled first (nobody emailed: the address is going
 * away), then their personal fields replaced everywhere they are kept, orders, payments, totals,
 * the audit rows and NetSuite's ids kept. The audit rows of both say what was done, never the data.
 */
import type { Db } from '@nh/server/db/client';
import { recordAudit, type AuditActor } from '@nh/server/queries/audit';
import { anonymiseCustomerRows, cancelPlansForPrivacy, customerExport, openPlansOf } from '@nh/server/queries/customer-privacy';
import { lockCustomerTags } from '@nh/server/queries/customers';
import { CUSTOMER_MESSAGES } from '@nh/shared/contracts/admin-customers';
import { AppError } from '../../../lib/errors';
import { loadCustomer, loadCustomerWithFigures } from './service';

/** What replaces the email (a reserved domain: nothing is ever sent there) and the other personal values. */
export const anonymisedEmail = (id: string) => `anonymised-${id}@anonymised.invalid`;
export const REMOVED = 'Anonymised';

export async function exportCustomer(db: Db, id: string, actor: AuditActor): Promise<Record<string, unknown>> {
  const c = await loadCustomerWithFigures(db, id);
  return db.transaction(async (tx) => {
    const data = await customerExport(tx, { id: c.id, email: c.email, userId: c.user_id });
    const counts = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? v.length : v ? 1 : 0]));
    await recordAudit(tx, actor, { action: 'customer.exported', entityType: 'customer', entityId: c.id, before: null, after: { records: counts } });
    return { exportedAt: new Date().toISOString(), ...data };
  });
}

export async function anonymiseCustomer(db: Db, id: string, confirmEmail: string, actor: AuditActor): Promise<{ id: string; cancelledPlans: number; orders: number; emails: number; auditRows: number }> {
  const c = await loadCustomer(db, id);
  if (c.anonymised_at) throw new AppError('CUSTOMER_ANONYMISED', CUSTOMER_MESSAGES.anonymised);
  if (confirmEmail.trim().toLowerCase() !== c.email) throw new AppError('VALIDATION_FAILED', CUSTOMER_MESSAGES.anonymiseConfirm);
  return db.transaction(async (tx) => {
    if (!(await lockCustomerTags(tx, c.id))) throw new AppError('NOT_FOUND', CUSTOMER_MESSAGES.notFound);
    const who = { id: c.id, email: c.email, userId: c.user_id };
    const plans = await openPlansOf(tx, who);
    await cancelPlansForPrivacy(
      tx,
      plans.map((p) => p.id),
    );
    await recordAudit(
      tx,
      actor,
      plans.map((p) => ({ action: 'subscription.cancelled' as const, entityType: 'subscription' as const, entityId: p.id, before: { status: p.status }, after: { status: 'cancelled', reason: 'Privacy request: customer anonymised' } })),
    );
    const done = await anonymiseCustomerRows(tx, who, anonymisedEmail(c.id), REMOVED);
    await recordAudit(tx, actor, { action: 'customer.anonymised', entityType: 'customer', entityId: c.id, before: null, after: { cancelledPlans: plans.length, ...done } });
    return { id: c.id, cancelledPlans: plans.length, orders: done.orders, emails: done.emails, auditRows: done.auditRows };
  });
}
