/**
 * A real SMTP server in-process (the `smtp-server` package) that keeps what it receives. Recipients
 * matching `rejectPermanently` get 550 at RCPT TO; `rejectTemporarily` get 451.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The message with quoted-printable soft breaks and escapes decoded, for `toContain` checks. */
  decoded: string;
}

function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  rejectPermanently: RegExp | null = null;
  rejectTemporarily: RegExp | null = null;
  /** SMTP connections accepted so far. */
  connections = 0;
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onConnect: (_session, callback) => {
        this.connections++;
        callback();
      },
      onRcptTo: (address, _session, callback) => {
        const fail = (code: number, text: string) => callback(Object.assign(new Error(text), { responseCode: code }));
        if (this.rejectPermanently?.test(address.address)) return fail(550, 'No such user here');
        if (this.rejectTemporarily?.test(address.address)) return fail(451, 'Try again later');
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            decoded: decodeQuotedPrintable(raw),
          });
          callback();
        });
      },
    });
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
