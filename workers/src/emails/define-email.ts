/**
 * What every email shares. Each email is one file, `./<kind>.ts` for a kind of @nh/shared's EMAIL_KINDS,
 * exporting `email = defineEmail(…)` (its payload, the outbox topics that make it, what it loads and its
 * template), which ./queue.ts loads; its job name is its kind and its email_log kind.
 *
 * Each email is sent at most once per (kind, subject id): its email_log row is locked for the send and
 * marked sent in the same transaction. Only a crash between the SMTP answer and the commit can send
 * it twice (at-least-once). SMTP 5xx rejections fail at once; temporary failures are retried.
 * Marketing emails (`marketing: true`) go only to an address on the newsletter list that has not
 * unsubscribed, judged inside that same transaction; order and plan emails go regardless.
 *
 * An email whose link carries a single-use secret (`EmailWithSecret`: invitations, password resets, a
 * guest's order link) has it made in that same transaction too, once the row is locked and seen not
 * sent: the secret exists only in the message (never in the job's data, its result or a log line), a
 * job run again for an email already sent makes none (the link that went out keeps working), and a
 * retry after a failed send makes a new one (the old one never left). A crash between the SMTP answer
 * and the commit leaves the first message's link dead and sends a second, working one.
 *
 * The send's statements (the email_log row, the newsletter check) are @nh/server queries/email-log.ts's.
 */
import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import type { EmailKind } from '@nh/shared/contracts/emails';
import type { Db } from '@nh/server/db/client';
import type { Logger } from '@nh/server/observability/logger';
import type { TaxCalculator } from '@nh/server/tax';
import { finishEmailLog, isNewsletterSubscribed, lockEmailLog, type EmailLogOutcome } from '@nh/server/queries/email-log';
import { commitTransaction, rollbackTransaction, type PoolConnection } from '@nh/server/queries/transaction';
import { emailsTotal } from '@nh/server/observability/metrics';
import type { JobContract, TopicMap } from '@nh/server/jobs/contract';
import { defineJob } from './job';
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

/** An email whose link carries a single-use secret, made as the email is sent (see above). */
export interface EmailWithSecret {
  subjectId: string;
  to: string;
  /** Makes the secret and stores its hash, in the send's transaction; null when the link can no longer be used. */
  mint: (tx: PoolConnection) => Promise<string | null>;
  /** The message around the secret. */
  message: (secret: string) => Omit<MailMessage, 'to'>;
}

/** Why a link's email is not sent after all: the link was spent or expired between loading and sending. */
const LINK_GONE = 'link used or expired';

/** An email as `sendOnce` takes it: the message is built inside the send's transaction. */
interface Outgoing {
  subjectId: string;
  to: string;
  build: (tx: PoolConnection) => Promise<MailMessage | EmailSkipped>;
}

const outgoing = (email: EmailToSend | EmailWithSecret): Outgoing =>
  'mint' in email
    ? {
        subjectId: email.subjectId,
        to: email.to,
        build: async (tx) => {
          const secret = await email.mint(tx);
          return secret === null ? skip(LINK_GONE) : { to: email.to, ...email.message(secret) };
        },
      }
    : { subjectId: email.subjectId, to: email.message.to, build: () => Promise.resolve(email.message) };

/** Another worker holds this email's row right now; retry later (by then it is sent). */
class EmailBusyError extends Error {}

/** Sends an email once per (kind, subject id), as the email_log row says. */
export function emailSender({ db, mailer }: { db: Db; mailer: Mailer }) {
  return async function sendOnce(kind: string, { subjectId, to, build }: Outgoing, marketing: boolean, jobLog: Logger): Promise<EmailResult> {
    const client = await db.$client.connect();
    try {
      // One round trip: open the transaction, make sure the row exists, lock it for the send.
      const row = await lockEmailLog(client, kind, subjectId, to);
      if (!row) throw new EmailBusyError(`${kind} ${subjectId} is being sent by another worker`);
      if (row.status === 'sent' || row.status === 'failed') {
        await commitTransaction(client);
        return { outcome: 'skipped', reason: row.status === 'sent' ? 'already sent' : 'rejected earlier' };
      }
      // The outcome and the commit travel together (one round trip).
      const finish = (status: EmailLogOutcome, messageId: string | null, error: string | null) => finishEmailLog(client, row.id, status, messageId, error);
      // Status 'skipped' is not final: should the address sign up again, a later run of this job sends.
      if (marketing) {
        if (!(await isNewsletterSubscribed(client, to))) {
          await finish('skipped', null, 'unsubscribed');
          jobLog.info({ kind }, 'marketing email not sent: the address is not subscribed');
          return { outcome: 'skipped', reason: 'unsubscribed' };
        }
      }
      const message = await build(client);
      if ('outcome' in message) {
        await finish('skipped', null, message.reason);
        jobLog.info({ kind, reason: message.reason }, 'email not sent');
        return message;
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
      await rollbackTransaction(client).catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
}

/** What an email may need besides the database: the tax calculator, for a figure that quotes a coming charge (the renewal reminder). */
export interface EmailServices {
  tax: TaxCalculator;
}

export interface EmailDefinition<N extends EmailKind, S extends z.ZodType, IdArgs extends unknown[]> {
  /** The job name, and the email_log kind: one of @nh/shared's EMAIL_KINDS (renaming it would send every email of the kind once more). */
  name: N;
  /** Ids only: `compose` loads the rest. */
  payload: S;
  /** The outbox topics the relay turns into this email. */
  topics?: TopicMap<z.input<S>>;
  /** The job id for a producer other than the relay (a sweep). */
  jobId?: JobContract<N, 'emails', S, unknown, IdArgs>['jobId'];
  /** Marketing: built with `marketingEmail` (one-click unsubscribe), sent only while the address is subscribed. */
  marketing?: boolean;
  /** Loads what the email shows and builds it (or its builder around a single-use secret); or says why nothing is sent. */
  compose: (db: Db, data: z.output<S>, services: EmailServices) => Promise<EmailToSend | EmailWithSecret | EmailSkipped>;
}

/**
 * An email as a job on the emails queue. Every email has the same retry policy: EMAIL_ATTEMPTS
 * attempts, exponential backoff from EMAIL_BACKOFF_MS (temporary SMTP failures, a row another worker
 * holds).
 */
export function defineEmail<const N extends EmailKind, S extends z.ZodType, IdArgs extends unknown[] = never>({
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
    handler: ({ db, mailer, log, tax }) => {
      const sendOnce = emailSender({ db, mailer });
      return async function sendEmail(job, data) {
        const jobLog = log.child({ jobId: job.id, queue: 'emails', job: job.name });
        try {
          const email = await compose(db, data, { tax });
          const result = 'outcome' in email ? email : await sendOnce(name, outgoing(email), marketing, jobLog);
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
