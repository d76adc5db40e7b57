/**
 * Spans the instrumentations cannot make in a worker: sending mail (nodemailer speaks SMTP over plain
 * sockets, which no instrumentation here traces). A decorator of the Mailer, applied where the runtime
 * makes it, so the email jobs themselves know nothing of tracing (docs/decisions/observability.md, "Traces").
 */
import { inSpan, tracingOn } from '@nh/server/observability/tracing';
import type { Mailer } from './emails/mail/transport';

/**
 * `mailer` with each `send` in a span `mail send` (kind client; the SMTP server's address, or the local
 * outbox folder; never the recipient), a child of the job's span. With tracing off, `mailer` itself.
 */
export function tracedMailer(mailer: Mailer, smtpUrl: string | undefined): Mailer {
  if (!tracingOn()) return mailer;
  const smtp = smtpUrl ? new URL(smtpUrl) : null;
  const attributes = smtp
    ? {
        'nh.mail.transport': 'smtp',
        'server.address': smtp.hostname,
        'server.port': Number(smtp.port) || (smtp.protocol === 'smtps:' ? 465 : 587),
      }
    : { 'nh.mail.transport': 'folder' };
  return {
    description: mailer.description,
    send: (message) => inSpan('mail send', { kind: 'client', attributes }, () => mailer.send(message)),
    close: () => mailer.close(),
  };
}
