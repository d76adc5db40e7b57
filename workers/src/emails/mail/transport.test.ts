import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, STALE_TEMP_MS, TMP_FOLDER } from './transport';

const root = path.join(os.tmpdir(), `nh-mail-outbox-${process.pid}-${Date.now()}`);
afterAll(() => fs.rm(root, { recursive: true, force: true }));
const from = 'Nurture Home <hello@example.com>';

describe('the local outbox folder (no SMTP configured)', () => {
  it('keeps every message, also many to one address at the same moment', async () => {
    const dir = path.join(root, 'many');
    const mailer = createMailer({ outboxDir: dir, from });
    const sends = Array.from({ length: 20 }, (_, i) =>
      mailer.send({ to: 'same@example.com', subject: `Message ${i}`, text: `Body ${i}`, html: `<p>Body ${i}</p>` }),
    );
    const ids = (await Promise.all(sends)).map((r) => r.messageId);
    expect(new Set(ids).size).toBe(20);
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(20);
    const bodies = await Promise.all(files.map((f) => fs.readFile(path.join(dir, f), 'utf8')));
    const subjects = new Set(bodies.map((b) => /^Subject: (.*)$/m.exec(b)?.[1]));
    expect(subjects.size).toBe(20);
    // Nothing is left in the temporary folder once the sends are done.
    expect(await fs.readdir(path.join(dir, TMP_FOLDER))).toEqual([]);
    mailer.close();
  });

  it('makes the folder again when it was removed while the worker runs', async () => {
    const dir = path.join(root, 'removed');
    const mailer = createMailer({ outboxDir: dir, from });
    await mailer.send({ to: 'first@example.com', subject: 'First', text: 'Hi', html: '<p>Hi</p>' });
    await fs.rm(dir, { recursive: true, force: true });
    await mailer.send({ to: 'second@example.com', subject: 'Second', text: 'Hi', html: '<p>Hi</p>' });
    mailer.close();
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/second@example\.com/);
  });

  it('writes extra header fields (List-Unsubscribe) into the message', async () => {
    const dir = path.join(root, 'headers');
    const mailer = createMailer({ outboxDir: dir, from });
    const url = 'https://shop.example/api/newsletter/unsubscribe/3f1c1a52-8a4e-4a7a-9c55-0d7f6a3c2b10';
    await mailer.send({
      to: 'reader@example.com',
      subject: 'News',
      text: 'Hello',
      html: '<p>Hello</p>',
      headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    const [file] = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml'));
    // Long header lines are folded (RFC 5322): unfold before reading them.
    const eml = (await fs.readFile(path.join(dir, file!), 'utf8')).replace(/\r?\n(?=[ \t])/g, '');
    expect(eml).toContain(`List-Unsubscribe: <${url}>`);
    expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    mailer.close();
  });

  it('removes temporary files a killed writer left behind, but not one being written now', async () => {
    const dir = path.join(root, 'crashed');
    await fs.mkdir(path.join(dir, TMP_FOLDER), { recursive: true });
    const old = new Date(Date.now() - STALE_TEMP_MS - 5_000);
    // A worker killed between write and rename, with this version (.tmp/) and with earlier ones (.part).
    const stale = [path.join(dir, TMP_FOLDER, 'killed.eml'), path.join(dir, 'older-version.eml.part')];
    const live = path.join(dir, TMP_FOLDER, 'another-process-writing.eml');
    for (const file of [...stale, live]) await fs.writeFile(file, 'half a message');
    for (const file of stale) await fs.utimes(file, old, old);

    const mailer = createMailer({ outboxDir: dir, from });
    await mailer.send({ to: 'after@example.com', subject: 'After the restart', text: 'Hi', html: '<p>Hi</p>' });
    mailer.close();

    expect(await fs.readdir(path.join(dir, TMP_FOLDER))).toEqual(['another-process-writing.eml']);
    const outbox = (await fs.readdir(dir)).filter((f) => f !== TMP_FOLDER);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatch(/after@example\.com-[0-9a-f]{8}\.eml$/);
  });
});
