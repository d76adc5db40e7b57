/**
 * What every email shares. Each email is one file (`defineEmail`: its payload, the outbox topics that
 * make it, what it loads and its template) listed in ./queue.ts; its job name is its email_log kind.
 *
 * Each email is sent at most once per (kind, subject id): its email_log row is locked for the send and
 * marked sent in the same transaction. Only a crash between the SMTP answer and the commit can send
 * it twice (at-least-once). SMTP 5xx rejections fail at once; temporary failures are retried.
 * Marketing emails (`marketing: true`) go only to an address on the newsletter list that has not
 * unsubscribed, judged inside that same transaction; order and plan emails go regardless.
 */
import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import type { z } from 'zod';
import { sqlLiteral, type Db, type Logger } from '@nh/server';
import { emailsTotal } from '@nh/server/metrics';
import type { JobContract, TopicMap } from '@nh/server/jobs/contract';
import { defineJob } from '../jobs/define';
import { isPermanentMailError, type MailMessage, type Mailer } from './mail/transport';

export type EmailResult = { outcome: 'sent'; messageId: string } | { outcome: 'skipped'; reason: string };
export type EmailSkipped = Extract<EmailResult, { outcome: 'skipped' }>;

/** An email's answer when there is nothing to send (the subject is gone, or no longer calls for it). */
export const skip = (reason: string): EmailSkipped => ({ outcome: 'skipped', reason });

/** What to send, and the subject it is sent once for (with the email's kind). */
export interface EmailToSend {
  subjectId: string;
  message: MailMessage;
}

/** Another worker holds this email's row right now; retry later (by then it is sent). */
class EmailBusyError extends Error {}

/** Sends `message` once per (kind, subject id), as the email_log row says. */
export function emailSender({ db, mailer }: { db: Db; mailer: Mailer }) {
  return async function sendOnce(kind: string, subjectId: string, message: MailMessage, marketing: boolean, jobLog: Logger): Promise<EmailResult> {
    const client = await db.$client.connect();
    const lit = (value: string | null) => sqlLiteral(client, value);
    const where = `kind = ${lit(kind)} and subject_id = ${lit(subjectId)}`;
    try {
      // One round trip: open the transaction, make sure the row exists, lock it for the send.
      const results = (await client.query(`begin;
        insert into email_log (kind, subject_id, to_address) values (${lit(kind)}, ${lit(subjectId)}, ${lit(message.to)}) on conflict do nothing;
        select id, status from email_log where ${where} for update skip locked`)) as unknown as Array<pg.QueryResult<{ id: number; status: string }>>;
      const row = results[results.length - 1]!.rows[0];
      if (!row) throw new EmailBusyError(`${kind} ${subjectId} is being sent by another worker`);
      if (row.status === 'sent' || row.status === 'failed') {
        await client.query('commit');
        return { outcome: 'skipped', reason: row.status === 'sent' ? 'already sent' : 'rejected earlier' };
      }
      // The outcome and the commit travel together (one round trip).
      const finish = (status: string, messageId: string | null, error: string | null) =>
        client.query(`update email_log set status = ${lit(status)}, message_id = ${lit(messageId)}, error = ${lit(error)}${status === 'sent' ? ', sent_at = now()' : ''} where id = ${row.id}; commit`);
      // Status 'skipped' is not final: should the address sign up again, a later run of this job sends.
      if (marketing) {
        const subscribed = await client.query(`select 1 from newsletter_subscribers where email = lower(${lit(message.to)}) and unsubscribed_at is null`);
        if (subscribed.rowCount === 0) {
          await finish('skipped', null, 'unsubscribed');
          jobLog.info({ kind }, 'marketing email not sent: the address is not subscribed');
          return { outcome: 'skipped', reason: 'unsubscribed' };
        }
      }
      let messageId: string;
      try {
        ({ messageId } = await mailer.send(message));
      } catch (error) {
        const permanent = isPermanentMailError(error);
        const text = (error as Error).message;
        await finish(permanent ? 'failed' : 'pending', null, text);
        if (permanent) {
          jobLog.error({ kind, err: text }, 'email rejected permanently');
          throw new UnrecoverableError(text);
        }
        throw error;
      }
      await finish('sent', messageId, null);
      jobLog.info({ kind, messageId }, 'email sent');
      return { outcome: 'sent', messageId };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
}

export interface EmailDefinition<N extends string, S extends z.ZodType, IdArgs extends unknown[]> {
  /** The job name, and the email_log kind: renaming it would send every email of the kind once more. */
  name: N;
  /** Ids only: `compose` loads the rest. */
  payload: S;
  /** The outbox topics the relay turns into this email. */
  topics?: TopicMap<z.input<S>>;
  /** The job id for a producer other than the relay (a sweep). */
  jobId?: JobContract<N, 'emails', S, unknown, IdArgs>['jobId'];
  /** Marketing: built with `marketingEmail` (one-click unsubscribe), sent only while the address is subscribed. */
  marketing?: boolean;
  /** Loads what the email shows and builds it; or says why nothing is sent. */
  compose: (db: Db, data: z.output<S>) => Promise<EmailToSend | EmailSkipped>;
}

/**
 * An email as a job on the emails queue. Every email has the same retry policy: EMAIL_ATTEMPTS
 * attempts, exponential backoff from EMAIL_BACKOFF_MS (temporary SMTP failures, a row another worker
 * holds).
 */
export function defineEmail<const N extends string, S extends z.ZodType, IdArgs extends unknown[] = never>({
  name,
  payload,
  topics,
  jobId,
  marketing = false,
  compose,
}: EmailDefinition<N, S, IdArgs>) {
  return defineJob<N, 'emails', S, EmailResult, IdArgs>({
    name,
    queue: 'emails',
    payload,
    options: (config) => ({ attempts: config.EMAIL_ATTEMPTS, backoff: { type: 'exponential', delay: config.EMAIL_BACKOFF_MS } }),
    topics,
    jobId,
    handler: ({ db, mailer, log }) => {
      const sendOnce = emailSender({ db, mailer });
      return async function sendEmail(job, data) {
        const jobLog = log.child({ jobId: job.id, queue: 'emails', job: job.name });
        try {
          const email = await compose(db, data);
          const result = 'outcome' in email ? email : await sendOnce(name, email.subjectId, email.message, marketing, jobLog);
          emailsTotal.inc({ email: name, outcome: result.outcome });
          return result;
        } catch (error) {
          emailsTotal.inc({ email: name, outcome: 'failed' });
          throw error;
        }
      };
    },
  });
}
