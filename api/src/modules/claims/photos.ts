/**
 * A claim's photo (docs/decisions/claims.md, "Photos"): uploaded first as its bytes for one order, then
 * named by the claim on that order. The bytes are checked by their content (sharp reads the real
 * format: JPEG, PNG or WebP), size- and pixel-limited, turned upright and re-encoded as JPEG, which keeps
 * none of the camera's metadata (place, device). They live in the private claims store (its own folder,
 * or the bucket's `claims/` prefix), which no public route serves: staff read a claim's photo through
 * `GET /api/admin/claims/{id}/photo` only.
 */
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import sharp from 'sharp';
import { CLAIM_PHOTO_CONTENT_TYPES, CLAIM_PHOTO_MAX_BYTES, CLAIM_PHOTO_MESSAGES, type ClaimPhotoUpload } from '@nh/shared/contracts/claims';
import type { FileStorage } from '@nh/server/storage';
import { AppError } from '../../lib/errors';
import { inspectImage, type ImageRules } from '../../lib/inspect-image';

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const MAX_PIXELS = 40_000_000;
/** The longest side kept: enough to see a crack or a leak, small enough for the queue. */
const MAX_SIDE = 2000;

const PHOTO_RULES: ImageRules = {
  formats: ACCEPTED_FORMATS,
  maxPixels: MAX_PIXELS,
  messages: { empty: CLAIM_PHOTO_MESSAGES.empty, notAnImage: CLAIM_PHOTO_MESSAGES.notAPhoto, tooManyPixels: CLAIM_PHOTO_MESSAGES.tooManyPixels },
};

/** Where a photo uploaded for an order is kept: under the order, so a claim can only name its own order's photos. */
export const claimPhotoKey = (orderId: string, photo: string): string => `${orderId.toLowerCase()}/${photo}.jpg`;

/** Checks and re-encodes the upload, stores it under the order; answers the name a claim gives as `photo`. */
export async function storeClaimPhoto(store: FileStorage, orderId: string, bytes: Buffer): Promise<ClaimPhotoUpload> {
  await inspectImage(bytes, PHOTO_RULES);
  let jpeg: Buffer;
  try {
    // rotate(): the camera's orientation applied; sharp writes no metadata unless asked (no EXIF, no GPS).
    jpeg = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch {
    // A file whose header reads as a picture but whose data does not (truncated, corrupt).
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', CLAIM_PHOTO_MESSAGES.notAPhoto);
  }
  const photo = randomBytes(16).toString('hex');
  await store.put(claimPhotoKey(orderId, photo), jpeg, { contentType: 'image/jpeg' });
  return { photo };
}

/** The key of the photo a claim names, once it is known to be there (uploaded for this order); null without one. */
export async function attachedPhotoKey(store: FileStorage, orderId: string, photo: string | undefined): Promise<string | null> {
  if (!photo) return null;
  const key = claimPhotoKey(orderId, photo);
  if (!(await store.stat(key))) throw new AppError('CLAIM_PHOTO_MISSING', CLAIM_PHOTO_MESSAGES.missing, { fields: { photo: CLAIM_PHOTO_MESSAGES.missing } });
  return key;
}

/** The photo's bytes as the request body (its own Content-Type, its own limit), ahead of the API's JSON-only rule. */
export const photoBody: RequestHandler[] = [
  express.raw({ type: [...CLAIM_PHOTO_CONTENT_TYPES, 'application/octet-stream'], limit: CLAIM_PHOTO_MAX_BYTES }),
  // The body limit's refusal in words a shopper can act on.
  (err: unknown, _req: Request, _res: Response, next: NextFunction) => {
    next((err as { type?: string }).type === 'entity.too.large' ? new AppError('BODY_TOO_LARGE', CLAIM_PHOTO_MESSAGES.tooLarge) : err);
  },
  (req, _res, next) => {
    // Another Content-Type (a PDF, a GIF) is not read at all: the same refusal as bytes that are no photo.
    next(Buffer.isBuffer(req.body) ? undefined : new AppError('UNSUPPORTED_MEDIA_TYPE', CLAIM_PHOTO_MESSAGES.notAPhoto));
  },
] as RequestHandler[];

/** Streams a stored photo to staff, shown inline (the admin router's `no-store` holds: no copy stays in a browser after sign-out). */
export async function sendClaimPhoto(store: FileStorage, key: string, res: Response, fileName: string): Promise<void> {
  const file = await store.get(key);
  if (!file) throw new AppError('NOT_FOUND', CLAIM_PHOTO_MESSAGES.missing);
  res.set({
    'Content-Type': 'image/jpeg',
    'Content-Length': String(file.size),
    'Content-Disposition': `inline; filename="${fileName}"`,
  });
  await pipeline(file.body, res);
}
