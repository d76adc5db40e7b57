/**
 * Outgoing mail: nodemailer over SMTP when `SMTP_URL` is set; otherwise every message is written as an
 * .eml file to a local outbox folder (a developer opens it with any mail client). Same interface either way.
 * A message's `headers` (e.g. RFC 8058 List-Unsubscribe) travel in both.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` on marketing email. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Where messages go, for the start-up log line. */
  readonly description: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  /** SMTP connections kept open and reused (one per concurrent send); a new connection per message costs a TCP and SMTP handshake each. */
  smtpConnections?: number;
  outboxDir: string;
  from: string;
}

/** The outbox's sub-folder for messages being written. */
export const TMP_FOLDER = '.tmp';
/** A write takes milliseconds: a temporary file this old belongs to no live writer (another process may share the folder). */
export const STALE_TEMP_MS = 60_000;

/**
 * A nodemailer transport made on the first send: nodemailer is loaded then (dynamic import), so a
 * worker that sends no mail (an exports or erp-sync worker) never carries it (issue 26). `close` closes
 * it if it was made.
 */
function lazyTransport(make: (nodemailer: (typeof import('nodemailer'))['default']) => Transporter): { sendMail: (mail: SendMailOptions) => Promise<{ messageId: string; message?: unknown }>; close: () => void } {
  let transport: Promise<Transporter> | null = null;
  let made: Transporter | null = null;
  return {
    async sendMail(mail) {
      transport ??= import('nodemailer').then(
        (module) => (made = make(module.default)),
        (error: unknown) => {
          transport = null; // the next send tries again
          throw error;
        },
      );
      return (await transport).sendMail(mail);
    },
    close() {
      if (made) made.close();
      else void transport?.then((t) => t.close(), () => {});
    },
  };
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    // Pooled: each connection carries message after message (`pool=false` in the URL turns it off).
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: options.smtpConnections ?? 5 }));
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
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  const tmpDir = path.join(options.outboxDir, TMP_FOLDER);
  // Temporary files a killed process left behind go at start; sends wait for the sweep (a failed sweep blocks nothing).
  const swept = sweepStaleTemporaryFiles(options.outboxDir).catch(() => {});
  return {
    description: `local outbox folder ${options.outboxDir}`,
    async send(message) {
      await swept;
      const info = await transport.sendMail({ from: options.from, ...message });
      const safeTo = message.to.replace(/[^A-Za-z0-9@._-]/g, '_');
      // Unique even for two messages to one address in the same millisecond.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}-${randomUUID().slice(0, 8)}.eml`;
      // Written in the .tmp sub-folder and renamed into the outbox, so a reader never sees half a message.
      const tmp = path.join(tmpDir, name);
      try {
        // The folder is made when a write finds it missing (first message, or removed meanwhile), not
        // before every message: a mkdir per message was a visible share of the worker's CPU.
        await fs.writeFile(tmp, info.message as Buffer).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await fs.mkdir(tmpDir, { recursive: true });
          await fs.writeFile(tmp, info.message as Buffer);
        });
        await fs.rename(tmp, path.join(options.outboxDir, name));
      } catch (error) {
        await fs.rm(tmp, { force: true });
        throw error;
      }
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/**
 * Deletes temporary files older than STALE_TEMP_MS: in `.tmp/`, and `*.part` files in the outbox itself
 * (where earlier versions wrote them). A worker killed between write and rename leaves one behind.
 */
export async function sweepStaleTemporaryFiles(outboxDir: string, now = Date.now()): Promise<void> {
  const tmpDir = path.join(outboxDir, TMP_FOLDER);
  const candidates = [
    ...(await fs.readdir(tmpDir).catch(() => [])).map((f) => path.join(tmpDir, f)),
    ...(await fs.readdir(outboxDir).catch(() => [])).filter((f) => f.endsWith('.part')).map((f) => path.join(outboxDir, f)),
  ];
  await Promise.all(
    candidates.map(async (file) => {
      const stat = await fs.stat(file).catch(() => null);
      if (stat?.isFile() && now - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
    }),
  );
}

/** A rejection the server will repeat (SMTP 5xx): retrying cannot help. 4xx and connection errors are temporary. */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
