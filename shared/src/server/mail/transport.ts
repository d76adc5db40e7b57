/**
 * Outgoing mail: nodemailer over SMTP when `SMTP_URL` is set; otherwise every message is written as an
 * .eml file to a local outbox folder (a developer opens it with any mail client). Same interface either way.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Where messages go, for the start-up log line. */
  readonly description: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const { hostname, port } = new URL(options.smtpUrl);
    return {
      description: `SMTP ${hostname}:${port || 'default port'}`,
      async send(message) {
        const info = await transport.sendMail({ from: options.from, ...message });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `local outbox folder ${options.outboxDir}`,
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const safeTo = message.to.replace(/[^A-Za-z0-9@._-]/g, '_');
      // Unique even for two messages to one address in the same millisecond.
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}-${randomUUID().slice(0, 8)}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      await fs.writeFile(`${file}.part`, info.message as Buffer);
      await fs.rename(`${file}.part`, file);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/** A rejection the server will repeat (SMTP 5xx): retrying cannot help. 4xx and connection errors are temporary. */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
