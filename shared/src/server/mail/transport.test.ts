import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from './transport';

const dir = path.join(os.tmpdir(), `nh-mail-outbox-${process.pid}-${Date.now()}`);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('the local outbox folder (no SMTP configured)', () => {
  it('keeps every message, also many to one address at the same moment', async () => {
    const mailer = createMailer({ outboxDir: dir, from: 'Nurture Home <hello@example.com>' });
    const sends = Array.from({ length: 20 }, (_, i) => mailer.send({ to: 'same@example.com', subject: `Message ${i}`, text: `Body ${i}`, html: `<p>Body ${i}</p>` }));
    const ids = (await Promise.all(sends)).map((r) => r.messageId);
    expect(new Set(ids).size).toBe(20);
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(20);
    const bodies = await Promise.all(files.map((f) => fs.readFile(path.join(dir, f), 'utf8')));
    const subjects = new Set(bodies.map((b) => /^Subject: (.*)$/m.exec(b)?.[1]));
    expect(subjects.size).toBe(20);
    await mailer.close();
  });
});
