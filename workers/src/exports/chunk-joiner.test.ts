import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { chunkJoiner } from './processor';

/** A file's write as the storage sees it: one chunk per write. */
const sink = (chunks: Buffer[]) =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });

describe('chunkJoiner', () => {
  it('passes every byte through, in order, in chunks of at least the size asked (the last one smaller)', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => Buffer.from(`row ${i},"a, b",=1\n`));
    const chunks: Buffer[] = [];
    await pipeline(Readable.from(rows), chunkJoiner(1024), sink(chunks));
    expect(Buffer.concat(chunks).equals(Buffer.concat(rows))).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(1024);
    expect(chunks.at(-1)!.length).toBeGreaterThan(0);
  });

  it('writes nothing for no rows', async () => {
    const chunks: Buffer[] = [];
    await pipeline(Readable.from([]), chunkJoiner(), sink(chunks));
    expect(chunks).toEqual([]);
  });
});
