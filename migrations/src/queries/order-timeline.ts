/**
 * Everything that happened to one order, for its timeline in the back office: the emails sent about it
 * (email_log), the NetSuite requests made for it (the ledger) and the staff actions on it (audit_events).
 * The order row and its payment rows come from their own modules.
 */
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvents, emailLog, netsuiteSyncAttempts } from '../db/schema';

/** The emails sent about an order: subject id the order id, or `<order id>:<more>` (a resend). */
export async function orderEmails(db: Db, orderId: string, kinds: readonly string[]) {
  return db
    .select({ kind: emailLog.kind, subjectId: emailLog.subjectId, to: emailLog.toAddress, status: emailLog.status, error: emailLog.error, createdAt: emailLog.createdAt, sentAt: emailLog.sentAt })
    .from(emailLog)
    // A range on the (kind, subject_id) index: the id itself and every `<id>:…` after it.
    .where(and(inArray(emailLog.kind, [...kinds]), gte(emailLog.subjectId, orderId), lte(emailLog.subjectId, `${orderId}:~`)))
    .orderBy(asc(emailLog.createdAt));
}

export async function orderSyncAttempts(db: Db, orderId: string) {
  return db.select().from(netsuiteSyncAttempts).where(eq(netsuiteSyncAttempts.orderId, orderId)).orderBy(asc(netsuiteSyncAttempts.at), asc(netsuiteSyncAttempts.id));
}

export async function entityAudit(db: Db, entityType: string, entityId: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, entityId)))
    .orderBy(asc(auditEvents.id));
}
