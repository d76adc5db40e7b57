/**
 * emails: newsletter welcome (with the subscriber's personal 15% code) and order confirmation. Each
 * email is sent at most once per (kind, subject id): its email_log row is locked for the send and
 * marked sent in the same transaction. Only a crash between the SMTP answer and the commit can send
 * it twice (at-least-once). SMTP 5xx rejections fail at once; temporary failures are retried.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { NEWSLETTER_DISCOUNT_PERCENT } from '@nh/shared';
import { tables, type Db, type Logger } from '@nh/shared/server';
import { JOB_NAMES, jobPayloads } from '@nh/shared/server/queues';
import { isPermanentMailError, type MailMessage, type Mailer } from '@nh/shared/server/mail/transport';
import { newsletterWelcomeEmail, orderConfirmationEmail } from '@nh/shared/server/mail/templates';
import { ensureWelcomeCode } from './welcome-code';

export const EMAIL_KINDS = { newsletterWelcome: 'newsletter-welcome', orderConfirmation: 'order-confirmation' } as const;

export interface EmailDeps {
  db: Db;
  mailer: Mailer;
  log: Logger;
}

export type EmailResult = { outcome: 'sent'; messageId: string } | { outcome: 'skipped'; reason: string };

/** Another worker holds this email's row right now; retry later (by then it is sent). */
class EmailBusyError extends Error {}

export function createEmailProcessor({ db, mailer, log }: EmailDeps) {
  const { emailLog } = tables;

  async function sendOnce(kind: string, subjectId: string, message: MailMessage, jobLog: Logger): Promise<EmailResult> {
    await db.insert(emailLog).values({ kind, subjectId, toAddress: message.to }).onConflictDoNothing();
    const client = await db.$client.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: number; status: string }>(
        'select id, status from email_log where kind = $1 and subject_id = $2 for update skip locked',
        [kind, subjectId],
      );
      const row = rows[0];
      if (!row) throw new EmailBusyError(`${kind} ${subjectId} is being sent by another worker`);
      if (row.status === 'sent') {
        await client.query('commit');
        return { outcome: 'skipped', reason: 'already sent' };
      }
      if (row.status === 'failed') {
        await client.query('commit');
        return { outcome: 'skipped', reason: 'rejected earlier' };
      }
      try {
        const { messageId } = await mailer.send(message);
        await client.query(`update email_log set status = 'sent', message_id = $2, sent_at = now(), error = null where id = $1`, [row.id, messageId]);
        await client.query('commit');
        jobLog.info({ kind, messageId }, 'email sent');
        return { outcome: 'sent', messageId };
      } catch (error) {
        const permanent = isPermanentMailError(error);
        const text = (error as Error).message;
        await client.query(`update email_log set status = $2, error = $3 where id = $1`, [row.id, permanent ? 'failed' : 'pending', text]);
        await client.query('commit');
        if (permanent) {
          jobLog.error({ kind, err: text }, 'email rejected permanently');
          throw new UnrecoverableError(text);
        }
        throw error;
      }
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  return async function sendEmail(job: Job): Promise<EmailResult> {
    const jobLog = log.child({ jobId: job.id, queue: 'emails', job: job.name });
    switch (job.name) {
      case JOB_NAMES.newsletterWelcome: {
        const { subscriberId } = jobPayloads[JOB_NAMES.newsletterWelcome].parse(job.data);
        const subscriber = await db.query.newsletterSubscribers.findFirst({ where: eq(tables.newsletterSubscribers.id, subscriberId) });
        if (!subscriber) return { outcome: 'skipped', reason: 'subscriber not found' };
        const code = await ensureWelcomeCode(db, subscriberId);
        const content = newsletterWelcomeEmail({ code, percent: NEWSLETTER_DISCOUNT_PERCENT });
        return sendOnce(EMAIL_KINDS.newsletterWelcome, String(subscriberId), { to: subscriber.email, ...content }, jobLog);
      }
      case JOB_NAMES.orderConfirmation: {
        const { orderId } = jobPayloads[JOB_NAMES.orderConfirmation].parse(job.data);
        const order = await db.query.orders.findFirst({ where: eq(tables.orders.id, orderId) });
        if (!order) return { outcome: 'skipped', reason: 'order not found' };
        return sendOnce(EMAIL_KINDS.orderConfirmation, orderId, { to: order.customerEmail, ...orderConfirmationEmail(order) }, jobLog);
      }
      default:
        throw new UnrecoverableError(`unknown email job ${job.name}`);
    }
  };
}
