/**
 * A streaming write to S3 in bounded, constant memory: the body is copied into two part buffers that
 * are reused for the whole file, one filling while the other uploads (S3's multipart upload), or sent
 * in one PUT when it ends before the first part is full. Nothing is stored unless every byte was: on
 * any failure the multipart upload is aborted and the error thrown (the body's own, when it failed).
 *
 * Why not lib-storage's Upload, which did this before (issue 26, docs/decisions/file-storage.md): it
 * gathers the body's chunks until a part is full and then joins them into a new buffer, for every part.
 * The chunks live long enough to reach V8's old generation and, dead, wait for a full collection,
 * which V8 starts only after ~64 MB of such external memory: a 1M-order export to S3 peaked at ~245 MB
 * of RSS (~80 MB of it Buffers), against ~160 MB to the local folder. Here each incoming chunk is
 * copied at once and dies young, and the parts are the same two buffers throughout.
 */
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';

type Sdk = typeof import('@aws-sdk/client-s3');

/** S3's limit on the parts of one upload. */
const MAX_PARTS = 10_000;

export interface StreamUpload {
  sdk: Sdk;
  client: S3Client;
  Bucket: string;
  Key: string;
  ContentType: string;
  body: Readable;
  /** Each part but the last (S3's minimum is 5 MiB); two such buffers are the upload's memory. */
  partBytes: number;
}

/** Stores `body` under `Key`; answers its size. */
export async function uploadStream({ sdk, client, Bucket, Key, ContentType, body, partBytes }: StreamUpload): Promise<{ size: number }> {
  // The second buffer is made when the first part goes out (a small body never needs it).
  const buffers: Buffer[] = [Buffer.allocUnsafeSlow(partBytes)];
  let current = 0;
  let filled = 0;
  let uploadId: string | undefined;
  /** The parts S3 has taken, in order (one is sent only after the one before it arrived). */
  const parts: Array<{ PartNumber: number; ETag: string | undefined }> = [];
  /** The part being uploaded (at most one): its buffer is not written until it settles. */
  let inFlight: Promise<void> = Promise.resolve();

  /** Sends the next part; called only once the part before it arrived (`inFlight` settled). */
  const sendPart = async (bytes: Buffer) => {
    const PartNumber = parts.length + 1;
    if (PartNumber > MAX_PARTS) throw new Error(`the file is larger than S3 takes in parts of ${partBytes} bytes (${MAX_PARTS} parts)`);
    uploadId ??= (await client.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key, ContentType }))).UploadId;
    const sent = client.send(new sdk.UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: bytes, ContentLength: bytes.length }));
    inFlight = sent.then(({ ETag }) => {
      parts.push({ PartNumber, ETag });
    });
    // Seen when the next part (or the end) waits for it; marked handled so a failure meanwhile is not "unhandled".
    inFlight.catch(() => {});
  };

  try {
    // A body that fails (or closes early) throws its own error here; leaving the loop destroys it.
    for await (const chunk of body as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let offset = 0; offset < bytes.length; ) {
        const copied = bytes.copy(buffers[current]!, filled, offset);
        offset += copied;
        filled += copied;
        if (filled === partBytes) {
          // The other buffer is written next: its part must have arrived.
          await inFlight;
          await sendPart(buffers[current]!);
          current = 1 - current;
          buffers[current] ??= Buffer.allocUnsafeSlow(partBytes);
          filled = 0;
        }
      }
    }
    await inFlight;
    // Every full part has arrived: the file is those and what the current buffer holds.
    const size = parts.length * partBytes + filled;
    const last = buffers[current]!.subarray(0, filled);
    if (parts.length === 0) {
      await client.send(new sdk.PutObjectCommand({ Bucket, Key, Body: last, ContentType, ContentLength: last.length }));
      return { size };
    }
    if (filled > 0) {
      await sendPart(last);
      await inFlight;
    }
    await client.send(new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    return { size };
  } catch (error) {
    body.destroy();
    await inFlight.catch(() => {});
    if (uploadId) await client.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => {});
    throw error;
  }
}
