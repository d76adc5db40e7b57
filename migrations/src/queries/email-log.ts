/**
 * The email log (`email_log`): each email is sent at most once per (kind, subject id). The mail worker's
 * send (workers emails/define-email.ts) locks the email's row for the send and marks it in the same
 * transaction, in two round trips: one opens the transaction, makes sure the row exists and locks it;
 * one writes the outcome and commits. Simple-protocol messages (several statements in one), so their
 * values are literals (sqlLiteral).
 */
import type pg from 'pg';
import { sqlLiteral } from '../db/client';

/** An email's row as the send reads it: `pending`, `sent`, `skipped` (not final) or `failed` (rejected for good). */
export interface EmailLogRow {
  id: number;
  status: string;
}

export type EmailLogOutcome = 'pending' | 'sent' | 'skipped' | 'failed';

/**
 * One round trip: opens the transaction on `client`, makes sure the email's row exists and locks it for
 * the send. Undefined when another worker holds the row (SKIP LOCKED).
 */
export async function lockEmailLog(client: pg.ClientBase, kind: string, subjectId: string, to: string): Promise<EmailLogRow | undefined> {
  const lit = (value: string | null) => sqlLiteral(client, value);
  const where = `kind = ${lit(kind)} and subject_id = ${lit(subjectId)}`;
  const results = (await client.query(`begin;
        insert into email_log (kind, subject_id, to_address) values (${lit(kind)}, ${lit(subjectId)}, ${lit(to)}) on conflict do nothing;
        select id, status from email_log where ${where} for update skip locked`)) as unknown as Array<pg.QueryResult<EmailLogRow>>;
  return results[results.length - 1]!.rows[0];
}

/** The send's outcome on the locked row, and the commit: one round trip. */
export async function finishEmailLog(client: pg.ClientBase, id: number, status: EmailLogOutcome, messageId: string | null, error: string | null): Promise<void> {
  const lit = (value: string | null) => sqlLiteral(client, value);
  await client.query(`update email_log set status = ${lit(status)}, message_id = ${lit(messageId)}, error = ${lit(error)}${status === 'sent' ? ', sent_at = now()' : ''} where id = ${id}; commit`);
}

/** Whether the address is on the newsletter list and has not unsubscribed (a marketing email's condition), inside the send's transaction. */
export async function isNewsletterSubscribed(client: pg.ClientBase, email: string): Promise<boolean> {
  const subscribed = await client.query(`select 1 from newsletter_subscribers where email = lower(${sqlLiteral(client, email)}) and unsubscribed_at is null`);
  return subscribed.rowCount !== 0;
}
